/**
 * Every page's address, as the app opens it (`Taro.navigateTo({ url })`); the pages themselves are listed in
 * routes.ts. A page that takes parameters has a function that builds its address.
 */

// the app's own
export const HOME_URL = '/pages/sys/index'
/** The home of one hospital: opening it with another hospital's code switches the app to that hospital (spec §2). */
export const hospitalHomeUrl = (hospitalCode: string) => `${HOME_URL}?hospitalCode=${encodeURIComponent(hospitalCode)}`
/** 绑定手机号, saying which kind of page sent the patient (spec §4 sourceType). */
export const loginUrl = (sourceType: number) => `/pages/login/index?sourceType=${sourceType}`
/** 我的, the last tab of every tab bar. */
export const MINE_URL = '/pages/sys/user/index'
/** Where WeChat's and Alipay's authorisation pages send the browser back (spec §2: /h5/pages/login/login). */
export const AUTH_RETURN_URL = '/pages/login/login'
export const PERMISSION_URL = '/pages/permission'
/** Where an address that is no page of this build leads (app.tsx). */
export const NOT_FOUND_URL = '/pages/notFound/index'
/** A page of the server inside a mini-program's web-view (the sandbox cashier); only the server's own origin opens. */
export const webviewUrl = (url: string) => `/pages/webview/index?url=${encodeURIComponent(url)}`
/** Taro's event when the web-view page closes (the patient is back from what it showed). */
export const WEBVIEW_CLOSED = 'webview:closed'
export const HOSPITAL_LIST_URL = '/pages/hospital/index'
/** 选择医院 opened on one brand's hospitals and featured departments. */
export const brandHospitalsUrl = (brandId: number) => `${HOSPITAL_LIST_URL}?brandId=${brandId}`
/** 医院设置: the current hospital's settings, for its staff. */
export const HOSPITAL_CONFIG_URL = '/pages/hospitalConfig/index'
export const EDIT_USER_URL = '/pages/editUser/index'
export const CHOOSE_LOCATION_URL = '/pages/chooseLocation/index'
export const knowledgeArticleUrl = (id: number) => `/pages/sys/knowledge/detail?id=${id}`
export const aboutTopicUrl = (key: string) => `/pages/about/rich?key=${key}`
export const ABOUT_URL = '/pages/about/index'
/** 投诉建议: a complaint, suggestion or praise to the hospital, and the answers. */
export const COMMENT_URL = '/pages/comment/index'
/** 用户协议与隐私政策: agreeing (again) before going on. */
export const CONSENT_URL = '/pages/about/consent'
export const PRIVACY_URL = '/pages/privacy/index'
export const HEALTH_CARD_URL = '/pages/healthPatient/index'
/** One patient's card at the current hospital (number, QR code, 建档 information). */
export const patientCardUrl = (patientId: number) => `${HEALTH_CARD_URL}?id=${patientId}`
export const ADDRESS_LIST_URL = '/pages/address/list'
export const MY_DOCTORS_URL = '/pages/doctor/index'
/** 预约挂号: the hospital's registration notice, then the departments. */
export const REGISTER_URL = '/palm/register/index'
export const REGISTER_RECORDS_URL = '/pages/order/register/index'
export const PAYMENT_RECORDS_URL = '/pages/order/payment/index'

// registration
export const DEPT_LIST_URL = '/palm/register/deptList/index'
export const SEARCH_URL = '/palm/register/deptList/search'
export const deptScheduleUrl = (dept: { id: number; deptName: string }) =>
  `/palm/register/deptSchedule/index?deptId=${dept.id}&deptName=${encodeURIComponent(dept.deptName)}`
/** 按医生 opens one doctor's grid; without a doctor, the department's general clinic (普通号). */
export const rowScheduleUrl = (deptId: number, doctorId: number | null) =>
  `/palm/register/rowSchedule/index?deptId=${deptId}${doctorId === null ? '' : `&doctorId=${doctorId}`}`
export const confirmUrl = (scheduleId: number) => `/palm/register/confirm/index?scheduleId=${scheduleId}`
export const doctorUrl = (id: number) => `/palm/doctor/index?id=${id}`
/** 医生文章: what one doctor wrote. */
export const doctorArticlesUrl = (doctorId: number, name: string) => `/internet/doctorArticle/index?doctorId=${doctorId}&name=${encodeURIComponent(name)}`
export const introduceDoctorUrl = (id: number) => `/pages/introduce/doctor?id=${id}`
export const introduceDeptUrl = (id: number) => `/pages/introduce/dept?id=${id}`
/** A page of the hospital's rich text (就医指南...): its textConfig key and its title. */
export const introduceHtmlUrl = (key: string, title: string) => `/pages/introduce/html?key=${key}&title=${encodeURIComponent(title)}`
export const chsPaymentUrl = (id: number) => `/palm/chsPayment/index?source=register&type=register&id=${id}`

// registration records
export const detailUrl = (id: number, source = 'list') => `/pages/order/register/detail?source=${source}&type=register&id=${id}`
/** The cashier brings the browser back here (a path under /h5/, as the payment server requires); the page confirms. */
export const payReturnUrl = (id: number) => `/h5${detailUrl(id, 'pay')}`

// consultation orders
export const INQUIRY_LIST_URL = '/pages/order/inquiry/index'
export const inquiryDetailUrl = (id: number) => `/pages/order/inquiry/detail?id=${id}`
/** The cashier brings the browser back to the detail (a path under /h5/), which checks the inquiry on opening. */
export const inquiryPayReturnUrl = (id: number) => `/h5${inquiryDetailUrl(id)}`
/** The consultation room with the doctor (spec §2 /internet/tim/index, query toUserId and type). */
export const roomUrl = (doctorImAccount: string, inquiryId: number) =>
  `/internet/tim/index?toUserId=${encodeURIComponent(doctorImAccount)}&type=inquiry&inquiryId=${inquiryId}`

// online doctors
export const DOCTOR_LIST_URL = '/internet/doctorList/index'
export const DOCTOR_SEARCH_URL = '/internet/searchParams/index'
export const onlineDoctorUrl = (id: number) => `/internet/doctor/index?id=${id}`
/** 图文问诊 with one doctor (the inquiry page belongs to the consultation orders). */
export const inquiryUrl = (doctorId: number) => `/internet/inquiry/index?doctorId=${doctorId}`

// ratings and gifts
export const moreEvaluationUrl = (doctorId: number) => `/internet/moreEvaluation/index?doctorId=${doctorId}`
export const scoreUrl = (doctorId: number) => `/internet/score/index?doctorId=${doctorId}`
export const giftPageUrl = (doctorId: number, inquiryId?: number) => `/internet/tim/gift/index?doctorId=${doctorId}${inquiryId ? `&inquiryId=${inquiryId}` : ''}`
/** The cashier brings the browser back to the gift page (a path under /h5/) with the order's number added (orderNo=). */
export const giftReturnUrl = (doctorId: number, inquiryId?: number) => `/h5${giftPageUrl(doctorId, inquiryId)}`

// records and messages
export const MESSAGE_CENTRE_URL = '/pages/message/index'
export const MEDICAL_HISTORY_URL = '/pages/medicalHistory/index'
export const ACCESS_LOG_URL = '/pages/accessLog/index'
export const medicalRecordUrl = (imOrderNo: string) => `${MEDICAL_HISTORY_URL}?imOrderNo=${encodeURIComponent(imOrderNo)}`
export const CHAT_HISTORY_URL = '/internet/timHistory/index'
export const chatRecordUrl = (inquiryId: number) => `${CHAT_HISTORY_URL}?inquiryId=${inquiryId}`
export const historyCasesUrl = (patientId: number) => `/internet/historyCases/index?patientId=${patientId}`
export const complaintUrl = (inquiryId: number) => `/internet/complaint/index?id=${inquiryId}`

// follow-up
export const NOTICE_URL = '/internet/doctorList/notice'
/** 问诊须知, continuing to `next` once the patient has read it. */
export const noticeUrl = (next: string) => `${NOTICE_URL}?next=${encodeURIComponent(next)}`
/** 复诊续方 with one doctor (spec §2 /internet/inquiry/useMedicine). */
export const renewalUrl = (doctorId: number) => `/internet/inquiry/useMedicine?doctorId=${doctorId}`
export const FEVER_URL = '/internet/heat/index'
export const GUIDANCE_URL = '/internet/guidance/index'

// each hospital's own pages
/**
 * The general pages a hospital may have its own page for. spec §1 names the hospitals with their own pages (10392,
 * 10387, 10388, 10412, aixin); the list of spec §2 "Customer-specific pages" lost its hospital prefixes and is read as:
 * - 10392: /addPatient/index (with id and business=edit: the completion page), /nucleic/index, /purchase (self
 *   registration), /orderList, /result;
 * - 10387 and 10388: /addPatient/index each, their own variant of adding and completing a patient;
 * - 10412: a page to choose the card type, then /addPatient/index;
 * - aixin: /doctorList/index.
 * 10392's home menu names its own nucleic pages (`nucleicUrls` links them to each other), as aixin's names its doctor list.
 * What the variants of the add-patient page differ in is data too: `addPatientVariant` in utils/hospitalVariants.
 */
const GENERAL_PAGES = {
  addPatient: '/pages/addPatient/index',
  completion: '/pages/addPatient/index',
  doctorList: DOCTOR_LIST_URL,
}
type GeneralPage = keyof typeof GENERAL_PAGES

const OWN_PAGES: Record<string, Partial<Record<GeneralPage, string>>> = {
  '10392': { addPatient: '/custom/10392/addPatient/index', completion: '/custom/10392/addPatient/index' },
  '10387': { addPatient: '/custom/10387/addPatient/index', completion: '/custom/10387/addPatient/index' },
  '10388': { addPatient: '/custom/10388/addPatient/index', completion: '/custom/10388/addPatient/index' },
  '10412': { addPatient: '/custom/10412/cardType/index', completion: '/custom/10412/addPatient/index' },
  aixin: { doctorList: '/custom/aixin/doctorList/index' },
}

/** Where the app opens `page` at a hospital: the hospital's own page where it has one, else the general one. */
export function ownPageUrl(page: GeneralPage, hospitalCode: string | undefined): string {
  return (hospitalCode ? OWN_PAGES[hospitalCode]?.[page] : undefined) ?? GENERAL_PAGES[page]
}

// patients
/** 添加就诊人 at the current hospital. */
export const addPatientUrl = (hospitalCode: string | undefined) => ownPageUrl('addPatient', hospitalCode)
/** 完善就诊人信息 (spec §5) of one patient at the current hospital. */
export const editPatientUrl = (patientId: number, hospitalCode: string | undefined) =>
  `${ownPageUrl('completion', hospitalCode)}?id=${patientId}&business=edit`
/** 10412's 添加就诊人 with the card type chosen on its own first page. */
export const cardTypeAddPatientUrl = (cardType: string) => `/custom/10412/addPatient/index?cardType=${cardType}`
/** 找医生 at the current hospital. */
export const doctorListUrl = (hospitalCode: string | undefined) => ownPageUrl('doctorList', hospitalCode)
export const PATIENT_LIST_URL = '/pages/patient/index'
/** The patient list as a picker: choosing one comes back with it as the current patient. */
export const CHOOSE_PATIENT_URL = `${PATIENT_LIST_URL}?select=1`
export const escortUrl = (patientId: number) => `/palm/hospitalization/escort/index?patientId=${patientId}`

// escorts
export const addEscortUrl = (patientId: number, id?: number) =>
  `/palm/hospitalization/escort/addEscort?patientId=${patientId}${id ? `&id=${id}` : ''}`

// the consultation room
export const evaluateUrl = (inquiryId: number) => `/internet/tim/evaluate/index?inquiryId=${inquiryId}`

// outpatient payment
export const PAYMENT_LIST_URL = '/palm/payment/list'
/** The chosen bills' items and total before paying (the selection is the bill store's). */
export const PAYMENT_MERGE_URL = '/palm/payment/mergeList'
/** 选择支付方式: one bill paid on its own. */
export const payTypeUrl = (billNo: string) => `/palm/payment/payType?billNo=${encodeURIComponent(billNo)}`
/** 合并支付 of one department of one visit: its unpaid bills paid as one order. */
export const deptMergeUrl = (visitNo: string, deptName: string) =>
  `/palm/payment/deptMergeList?visitNo=${encodeURIComponent(visitNo)}&deptName=${encodeURIComponent(deptName)}`
/** A bill opened from a scanned code (spec §4: sourceType 2). */
export const waitPayUrl = (billNo: string) => `/palm/payment/waitPay?billNo=${encodeURIComponent(billNo)}&source=scanCode`
/** 报告缴费: the bill of a test or an examination whose report is released once it is paid. */
export const reportBillUrl = (billNo: string) => `/palm/payment/waitPay?billNo=${encodeURIComponent(billNo)}&source=report`
export const paymentDetailUrl = (id: number, source = 'list') => `/pages/order/payment/detail?source=${source}&id=${id}`
/**
 * The cashier brings the browser back here (a path under /h5/) with `orderNo=` added: the payment's id is known only
 * once payment/init has answered, so the detail finds it by the order number.
 */
export const PAYMENT_PAY_RETURN_URL = '/h5/pages/order/payment/detail?source=pay'
/** 医保支付 of a payment of bills (spec §2 /palm/chsPayment/index): the voucher, the split, the cash part. */
export const billChsPaymentUrl = (id: number) => `/palm/chsPayment/index?source=payment&type=outpatient&id=${id}`
export const PRICE_DISCLOSURE_URL = '/palm/priceDisclosure/index'

// the inpatient deposit (住院预交金) and the outpatient account (门诊预交金)
export const HOSPITALIZATION_URL = '/palm/hospitalization/index'
export const INPATIENT_RECHARGE_URL = '/palm/hospitalization/recharge/recharge'
/** The chosen patient's deposit top-ups. */
export const INPATIENT_RECORDS_URL = '/palm/hospitalization/recharge/record'
/** 每日清单, opened on one day of the stay (else the day before today, or the latest day with charges). */
export const dailyBillUrl = (date?: string) => `/palm/hospitalization/settlement/index${date ? `?date=${date}` : ''}`
/** 住院预交金: the deposit of the chosen patient's stay, the hospital's amounts, and the ways on. */
export const INPATIENT_DEPOSIT_URL = '/palm/hospitalization/recharge/index'
/** 预交金充值 with one of the hospital's amounts chosen. */
export const inpatientRechargeUrl = (amountFen?: number) => `${INPATIENT_RECHARGE_URL}${amountFen ? `?amountFen=${amountFen}` : ''}`
/** 出院结算 of one finished stay of one of the caller's patients. */
export const settlementResultUrl = (patientId: number, admissionNo: string) =>
  `/palm/hospitalization/settlement/result?patientId=${patientId}&admissionNo=${encodeURIComponent(admissionNo)}`
/** 充值记录 among the orders: every deposit top-up of the caller's patients. */
export const RECHARGE_RECORDS_URL = '/pages/order/recharge/index'
export const rechargeDetailUrl = (id: number, source = 'list') => `/pages/order/recharge/detail?source=${source}&id=${id}`
/** The cashier brings the browser back to the top-up (a path under /h5/, `orderNo=` added by the cashier). */
export const rechargePayReturnUrl = (id?: number) => `/h5/pages/order/recharge/detail?source=pay${id ? `&id=${id}` : ''}`
export const ACCOUNT_RECHARGE_URL = '/palm/accountRecharge/index'
export const ACCOUNT_RECORDS_URL = '/palm/accountRecharge/list'
export const accountDetailUrl = (id: number, source = 'list') => `/palm/accountRecharge/detail?source=${source}&id=${id}`
export const accountPayReturnUrl = (id?: number) => `/h5/palm/accountRecharge/detail?source=pay${id ? `&id=${id}` : ''}`

// 电子陪护证 and 扫码缴费
/** One escort's electronic pass (电子陪护证), from the patient's escort list. */
export const escortPassUrl = (patientId: number, escortId: number) => `/palm/hospitalization/escort/eleAttend?patientId=${patientId}&escortId=${escortId}`
/** 扫码缴费: scan (or type) a bill's code, then the bill (waitPayUrl). */
export const SCAN_PAY_URL = '/palm/scanCode/index'

/** 排队叫号 (spec §2 Palm): today's queue numbers of the chosen patient. */
export const CALL_REGISTER_URL = '/palm/callRegister/index'

// self-service tests (自助开单)
export const SELF_SERVICE_URL = '/palm/selfService/index'
/** The chosen tests, the patient and the notices before paying (the choice is the self-service store's). */
export const SELF_SERVICE_CONFIRM_URL = '/palm/selfService/confirm/index'

// satisfaction surveys (spec §2 /pages/survey/list, /index, /result)
export const SURVEY_LIST_URL = '/pages/survey/list'
export const surveyUrl = (id: number) => `/pages/survey/index?id=${id}`
export const surveyResultUrl = (id: number) => `/pages/survey/result?id=${id}`

// reports (检查检验报告)
export const REPORT_URL = '/palm/report/index'
export const LAB_REPORTS_URL = '/palm/report/result/index'
export const IMAGING_REPORTS_URL = '/palm/report/pacs/list'
export const PATHOLOGY_REPORTS_URL = '/palm/report/pathology/index'
/** The physical-exam and nucleic-acid reports have their own pages. */
export const PHYSICAL_REPORTS_URL = '/palm/report/physical/index'
export const NUCLEIC_REPORTS_URL = '/palm/report/nucleic/index'
export const labReportUrl = (id: number) => `/palm/report/result/showResult?id=${id}`
export const imagingReportUrl = (id: number) => `/palm/report/result/inspect?id=${id}`
export const pathologyReportUrl = (id: number) => `/palm/report/pathology/inspect?id=${id}`
export const labTrendUrl = (id: number, code: string) => `/palm/report/trend/index?id=${id}&code=${encodeURIComponent(code)}`
export const pacsRedirectUrl = (id: number) => `/pages/common/pacsRedirect?id=${id}`
// physical exams (体检, spec §2 Physical-exam booking, Reports)
export const PHYSICAL_SELECT_URL = '/palm/reservePhysical/select'
export const physicalPackageUrl = (code: string) => `/palm/reservePhysical/detail?code=${encodeURIComponent(code)}`
export const PHYSICAL_RESERVE_LIST_URL = '/palm/reservePhysical/reserveList'
export const PHYSICAL_PAYMENT_LIST_URL = '/palm/reservePhysical/paymentList'
/** One appointment: pay it, cancel it, read its report (spec §4 sourceType 4). */
export const physicalAppointmentUrl = (id: number) => `/palm/physical/payment?id=${id}`
/** Where the cashier sends the browser back to: the appointment, asked about its payment first. */
export const physicalPayReturnUrl = (id?: number) => `/h5/palm/physical/payment?source=pay${id ? `&id=${id}` : ''}`
export const PHYSICAL_ORDERS_URL = '/pages/order/physical/index'
export const physicalReportListUrl = (patientId: number) => `/palm/report/physical/list?patientId=${patientId}`
/** A report of the current hospital (a `hospitalCode` in the address would switch hospitals). */
export const physicalReportUrl = (r: { patientId: number; examNo: string }) => `/palm/report/physical/info?patientId=${r.patientId}&examNo=${encodeURIComponent(r.examNo)}`
export const physicalFilePreviewUrl = (r: { patientId: number; examNo: string }) =>
  `/palm/report/physical/filePreview?patientId=${r.patientId}&examNo=${encodeURIComponent(r.examNo)}`
// examination appointments (医技预约, spec §2 /palm/inspectReserve/index, /pages/order/inspection, /pages/order/inspectReserve)
export const INSPECT_RESERVE_URL = '/palm/inspectReserve/index'
/** 医技预约 opened on one paid examination (预约 or 改约). */
export const inspectReserveUrl = (billNo: string) => `${INSPECT_RESERVE_URL}?billNo=${encodeURIComponent(billNo)}`
/** 医技预约记录 among the orders. */
export const INSPECTION_RECORDS_URL = '/pages/order/inspection/index'
/** One paid examination of the chosen patient: items, place, preparation, and its appointment or 去预约. */
export const inspectionDetailUrl = (billNo: string) => `/pages/order/inspection/detail?billNo=${encodeURIComponent(billNo)}`
/** One examination appointment at the current hospital: device, time, place and the preparation notes. */
export const examAppointmentUrl = (a: { patientId: number; appointmentNo: string }) =>
  `/pages/order/inspectReserve/index?patientId=${a.patientId}&appointmentNo=${encodeURIComponent(a.appointmentNo)}`

// nucleic-acid tests (spec §2 /palm/nucleic/*, /palm/report/nucleic/*, the customer-specific nucleic pages)
/** The pages of the nucleic flow, in the palm package or in a hospital's own (`/custom/<code>/nucleic`). */
export const nucleicUrls = (base = '/palm/nucleic') => ({
  home: `${base}/index`,
  purchase: `${base}/purchase`,
  orderList: `${base}/orderList`,
  result: `${base}/result`,
})
export const NUCLEIC_URLS = nucleicUrls()
export const NUCLEIC_REPORT_URL = '/palm/report/nucleic/index'
export const nucleicReportUrl = (sampleNo: string, patientId: number) => `/palm/report/nucleic/result?sampleNo=${encodeURIComponent(sampleNo)}&patientId=${patientId}`

// prescriptions (spec §2 /internet/prescription/*, /internet/usedMedicine, /internet/noStorePrescription, /internet/store)
export const prescriptionUrl = (id: number) => `/internet/prescription/medicine?id=${id}`
/** 查看处方 of a pharmacy order: the prescription it was placed from. */
export const orderPrescriptionUrl = (orderId: number) => `/internet/prescription/medicine?orderId=${orderId}`
/** 续方用药清单: the medicines chosen on 用药记录 (the prescription store's), with their quantities. */
export const PRESCRIPTION_EDIT_URL = '/internet/prescription/edit'
export const USED_MEDICINE_URL = '/internet/usedMedicine/index'
/** 用药记录 opened from the renewal form: the medicines chosen go back to it. */
export const usedMedicinePickUrl = (doctorId: number) => `${USED_MEDICINE_URL}?doctorId=${doctorId}`
/** A prescription no partner pharmacy can fill. */
export const noStorePrescriptionUrl = (id: number) => `/internet/noStorePrescription/index?id=${id}`
/** 确认订单 for a reviewed prescription (去购药). */
export const sureOrderUrl = (prescriptionId: number) => `/internet/sureOrder/index?prescriptionId=${prescriptionId}`
/** 确认订单 of 再次购药: a repeat order of a renewable prescription whose last order was completed. */
export const planOrderUrl = (prescriptionId: number) => `${sureOrderUrl(prescriptionId)}&repeat=1`
/** 处方流转: every prescription of the user's patients. */
export const PRESCRIPTION_OUTFLOW_URL = '/pages/order/prescription/hospital'
/** A pharmacy order (the order pages of the shop). */
export const pharmacyOrderUrl = (id: number) => `/pages/order/shop/detail?id=${id}`
/** One place on the map page (spec §2 /pages/openLocation). */
export const openLocationUrl = (p: { latitude: string; longitude: string; name: string; address: string }) =>
  `/pages/openLocation/index?latitude=${p.latitude}&longitude=${p.longitude}&name=${encodeURIComponent(p.name)}&address=${encodeURIComponent(p.address)}`
// medicines: the shop, its cart, checkout and pharmacy orders (spec §2 shop pages, /internet/sureOrder, /pages/order/shop)
export const SHOP_URL = '/pages/shop/list/index'
export const CART_URL = '/pages/shop/cart/index'
/** 确认订单 for the cart's selected lines. */
export const STORE_PAYMENT_URL = '/pages/storePayment/index'
export const PHARMACY_ORDERS_URL = '/pages/order/shop/index'
/** The cashier brings the browser back to the detail (a path under /h5/), which checks the order again. */
export const pharmacyOrderPayReturnUrl = (id: number) => `/h5${pharmacyOrderUrl(id)}&source=pay`
/** 药房介绍: a pharmacy's address, hours and phone. */
export const pharmacyStoreUrl = (id: number) => `/internet/store/index?id=${id}`
