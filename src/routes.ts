/**
 * The pages that exist, by package (spec §2 lists the whole product; a page joins when it is built).
 * app.config.ts registers exactly these, and the home menus open only these (others say "not open yet").
 */
export const MAIN_PAGES = [
  'pages/sys/index',
  'pages/sys/merge/index',
  'pages/sys/palm/index',
  'pages/sys/internet/index',
  'pages/sys/conversation/index',
  'pages/sys/knowledge/index',
  'pages/sys/knowledge/detail',
  'pages/sys/user/index',
  'pages/login/index',
  'pages/login/login',
  'pages/permission',
  'pages/notFound/index',
  'pages/hospital/index',
  'pages/hospitalConfig/index',
  'pages/about/index',
  'pages/about/rich',
  'pages/editUser/index',
  'pages/patient/index',
  'pages/healthPatient/index',
  'pages/addPatient/index',
  'pages/address/list',
  'pages/address/add',
  'pages/chooseLocation/index',
  'pages/openLocation/index',
  'pages/introduce/doctor',
  'pages/introduce/dept',
  'pages/order/register/index',
  'pages/order/register/detail',
  'pages/order/payment/index',
  'pages/order/payment/detail',
  'pages/order/recharge/index',
  'pages/order/recharge/detail',
  'pages/order/inquiry/index',
  'pages/order/inquiry/detail',
  'pages/doctor/index',
  'pages/message/index',
  'pages/medicalHistory/index',
  'pages/accessLog/index',
  'pages/privacy/index',
  'pages/webview/index',
  'pages/survey/list',
  'pages/survey/index',
  'pages/survey/result',
]

export const SUB_PACKAGES: { root: 'palm' | 'internet' | 'custom'; pages: string[] }[] = [
  {
    root: 'palm',
    pages: [
      'hospitalization/escort/index',
      'hospitalization/escort/addEscort',
      'register/index',
      'register/deptList/index',
      'register/deptList/search',
      'register/deptSchedule/index',
      'register/rowSchedule/index',
      'register/confirm/index',
      'doctor/index',
      'chsPayment/index',
      'ds/index',
      'payment/list',
      'payment/mergeList',
      'payment/waitPay',
      'priceDisclosure/index',
      'hospitalization/index',
      'hospitalization/recharge/recharge',
      'hospitalization/recharge/record',
      'hospitalization/settlement/index',
      'accountRecharge/index',
      'accountRecharge/list',
      'accountRecharge/detail',
      'selfService/index',
      'selfService/confirm/index',
      'callRegister/index',
      'hospitalization/escort/eleAttend',
      'scanCode/index',
      'payment/deptMergeList',
      'hospitalization/recharge/index',
      'hospitalization/settlement/result',
    ],
  },
  { root: 'internet', pages: ['doctorList/index', 'searchParams/index', 'doctor/index', 'inquiry/index', 'tim/index', 'timHistory/index', 'historyCases/index', 'complaint/index', 'tim/evaluate/index', 'tim/gift/index', 'moreEvaluation/index', 'score/index', 'inquiry/useMedicine', 'doctorList/notice', 'heat/index', 'guidance/index', 'hepatitisTest/hepatitis-test', 'hepatitisTest/hepatitis-result', 'babyBlood/index', 'inspectRead/inspect-read', 'inspectRead/inspect-detail'] },
  { root: 'custom', pages: [] },
]

const built = new Set([...MAIN_PAGES, ...SUB_PACKAGES.flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))])

/** Whether a URL (`/palm/register/index?x=1`) leads to a page of this build. */
export function isBuiltPage(url: string): boolean {
  const path = url.split('?')[0]!.replace(/^\//, '')
  return built.has(path)
}
