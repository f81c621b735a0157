import { count } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { ads, articles, brands, dictItems, hospitalConfigs, hospitals, users, type MenuEntry } from '../db/schema'
import { hospitalToday } from '../domain/register/rules'
import { CONFIG_SUPERVISION_PLATFORM } from '../domain/hospital'
import { ARTICLES } from './articles'
import { seedRegions } from './regions'
import { ensureSchedules, seedRegistration } from './register'
import { seedInternet } from './internet'
import { seedDoctorArticles } from './doctorArticles'
import { seedStaff } from './staff'
import { seedPharmacy } from './pharmacy'
import { seedPrescribing } from './prescribing'
import { seedHis } from './his'
import { seedDictionaries } from './dictionaries'
import { seedSurveys } from './survey'
import { introductionTexts, seedIntroductions } from './introduce'
import { staffDemoPasswordOf, type Config } from '../config'

/**
 * Demo platform: three hospitals covering the three roles and tab bars of spec §1, and the two other hospitals with
 * their own pages (spec §1: 10387, aixin), so that every hospital's own pages can be opened.
 */
export const DEMO = {
  defaultAppId: 'wxdemo0000000000',
  both: { code: '10392', appId: 'wx10392demo00000' },
  palm: { code: '10388', appId: 'wx10388demo00000' },
  internet: { code: '10412', appId: 'wx10412demo00000' },
  maternity: { code: '10387', appId: 'wx10387demo00000' },
  aixin: { code: 'aixin', appId: 'wxaixindemo00000' },
  staffMobile: '13800000000',
} as const

const palmMenus: MenuEntry[] = [
  { name: '预约挂号', icon: 'register', url: '/palm/register/index', role: 'palm', group: '门诊服务' },
  { name: '门诊缴费', icon: 'payment', url: '/palm/payment/list', role: 'palm', group: '门诊服务' },
  { name: '扫码缴费', icon: 'scan', url: '/palm/scanCode/index', role: 'palm', group: '门诊服务' },
  { name: '自助开单', icon: 'selfService', url: '/palm/selfService/index', role: 'palm', group: '门诊服务' },
  { name: '门诊预交金', icon: 'recharge', url: '/palm/accountRecharge/index', role: 'palm', group: '门诊服务' },
  { name: '报告查询', icon: 'report', url: '/palm/report/index', role: 'palm', group: '门诊服务' },
  { name: '排队叫号', icon: 'queue', url: '/palm/callRegister/index', role: 'palm', group: '门诊服务' },
  { name: '医技预约', icon: 'inspectReserve', url: '/palm/inspectReserve/index', role: 'palm', group: '门诊服务' },
  { name: '核酸检测', icon: 'nucleic', url: '/palm/nucleic/index', role: 'palm', group: '门诊服务' },
  { name: '住院服务', icon: 'inpatient', url: '/palm/hospitalization/index', role: 'palm', group: '住院服务' },
  { name: '体检预约', icon: 'physical', url: '/palm/reservePhysical/reserveList', role: 'palm', group: '健康管理' },
  { name: '价格公示', icon: 'price', url: '/palm/priceDisclosure/index', role: 'palm', group: '便民服务' },
  { name: '医院介绍', icon: 'introduce', url: '/pages/introduce/index', role: 'all', group: '便民服务' },
  { name: '智能导诊', icon: 'ai', url: '/palm/ds/index', role: 'palm', group: '便民服务' },
  { name: '就诊人管理', icon: 'patient', url: '/pages/patient/index', role: 'all', group: '便民服务' },
]

const internetMenus: MenuEntry[] = [
  { name: '在线问诊', icon: 'inquiry', url: '/internet/doctorList/index', role: 'internet', group: '互联网医院' },
  { name: '发热门诊', icon: 'fever', url: '/internet/heat/index', role: 'internet', group: '互联网医院' },
  { name: '复诊续方', icon: 'prescription', url: '/internet/prescription/index', role: 'internet', group: '互联网医院' },
  { name: '我的医生', icon: 'doctor', url: '/pages/doctor/index', role: 'internet', group: '互联网医院' },
  { name: '电子病历', icon: 'record', url: '/pages/medicalHistory/index', role: 'internet', group: '互联网医院' },
  { name: '药品商城', icon: 'shop', url: '/pages/shop/list/index', role: 'internet', group: '互联网医院' },
  { name: '乙肝自测', icon: 'test', url: '/internet/hepatitisTest/hepatitis-test', role: 'internet', group: '健康工具' },
  { name: '宝宝血型', icon: 'bloodType', url: '/internet/babyBlood/index', role: 'internet', group: '健康工具' },
  { name: '化验单解读', icon: 'inspectRead', url: '/internet/inspectRead/inspect-read', role: 'internet', group: '健康工具' },
]

/** 10392 sells its nucleic-acid tests on its own pages (spec §2 customer-specific /nucleic/index, /purchase, …). */
const bothMenus: MenuEntry[] = [...palmMenus.map((m) => (m.url === '/palm/nucleic/index' ? { ...m, url: '/custom/10392/nucleic/index' } : m)), ...internetMenus]
/** aixin finds its doctors on its own page (spec §2 /custom/aixin/doctorList/index). */
const AIXIN_DOCTOR_LIST_URL = '/custom/aixin/doctorList/index'
const aixinMenus: MenuEntry[] = internetMenus.map((m) => (m.url === '/internet/doctorList/index' ? { ...m, url: AIXIN_DOCTOR_LIST_URL } : m))

const texts = (name: string): Record<string, string> => ({
  registerNotice: `欢迎使用${name}预约挂号服务。\n1. 预约成功后请按预约时段提前15分钟到院报到。\n2. 就诊当日可在取号机或分诊台签到。\n3. 如需取消，请在就诊前一日17:00前操作，逾期不可退号。\n4. 一位就诊人同一科室同一时段只能预约一个号源。`,
  about: `${name}是集医疗、教学、科研、预防保健为一体的综合性医院，提供预约挂号、门诊缴费、报告查询、互联网诊疗等线上服务。`,
  userAgreement: '本平台为您提供在线就医服务。请确保所填写的就诊人信息真实有效，因信息错误导致的就诊问题由使用者承担。',
  privacyPolicy: '我们仅在提供医疗服务所必需的范围内收集您的个人信息，身份证号等敏感信息加密存储，不会向第三方提供。',
  ...introductionTexts(name),
})

/**
 * The demo platform on an empty database; on every start, the parts added since (regions, the registration catalogue)
 * and the rolling window of schedules. Answers whether the demo hospitals were created now.
 */
export async function seedIfEmpty(db: Db, cipher: FieldCipher, now = new Date(), staffPassword = staffDemoPasswordOf()): Promise<boolean> {
  // before the check below, so a database seeded before regions existed gets them too
  await seedRegions(db)
  await seedDictionaries(db)
  const [row] = await db.select({ n: count() }).from(hospitals)
  const empty = (row?.n ?? 0) === 0
  if (empty) await seedHospitals(db, cipher)
  // also for a database seeded before registration existed; each part is skipped once done
  await seedRegistration(db, cipher)
  await seedInternet(db)
  // what the demo online doctors wrote (医生文章)
  await seedDoctorArticles(db)
  // the internet hospitals' formulary, shop and pharmacy
  await seedPharmacy(db)
  // their shared diagnosis templates
  await seedPrescribing(db)
  // the sandbox HIS of the palm hospitals: price catalogue, queues, the demo people's unpaid bills
  await seedHis(db, cipher, now)
  // the workbench accounts of the online doctors and assistants (none without a demo password)
  await seedStaff(db, staffPassword)
  // the demo hospitals' satisfaction surveys
  await seedSurveys(db)
  // the introduction and guide of a demo database made before they existed
  await seedIntroductions(db)
  await ensureSchedules(db, hospitalToday(now), now)
  return empty
}

/**
 * What a starting server seeds, decided here only: the demo platform on a demo server (config.demo: outside
 * production, or DEMO=1), never on a hospital's production database; every server gets the administrative divisions
 * and the system dictionaries (民族), which the forms need and which are facts, not demo data. Answers whether the demo
 * hospitals were created now.
 */
export async function seedOnStart(config: Pick<Config, 'demo' | 'staffDemoPassword'>, db: Db, cipher: FieldCipher, now = new Date()): Promise<boolean> {
  if (config.demo) return seedIfEmpty(db, cipher, now, config.staffDemoPassword)
  await seedRegions(db)
  await seedDictionaries(db)
  return false
}

/** The home page banners of a demo hospital: its main services, each opening its page. */
function demoAds(hospitalId: number, h: DemoHospital): (typeof ads.$inferInsert)[] {
  const list = [{ title: `${h.shortName} · 线上就医更便捷`, url: '' }]
  if (h.isPalm) list.push({ title: '预约挂号 · 分时段就诊少排队', url: '/palm/register/index' })
  if (h.isInternet) list.push({ title: '在线问诊 · 名医在线 足不出户', url: h.doctorListUrl ?? '/internet/doctorList/index' })
  list.push({ title: '就诊人实名 · 信息加密保护', url: '/pages/about/rich?key=privacyPolicy' })
  return list.map((a, i) => ({ hospitalId, ...a, sort: i + 1 }))
}

interface DemoHospital {
  code: string
  appId: string
  name: string
  shortName: string
  level: string
  address: string
  phone: string
  isInternet: boolean
  isPalm: boolean
  menus: MenuEntry[]
  notice: string
  /** Where its 在线问诊 banner opens, when the hospital has its own doctor list. */
  doctorListUrl?: string
  /** Not one of the demo brand's (医联体) hospitals. */
  brandless?: boolean
}

async function seedHospitals(db: Db, cipher: FieldCipher) {
  await db.transaction(async (tx) => {
    // the platform's own home page (main mode)
    await tx.insert(ads).values({ hospitalId: null, title: '智慧医疗 便民服务', sort: 1 })
    const [brand] = await tx
      .insert(brands)
      .values({ name: '示范医疗集团', intro: '由三家医院组成的紧密型医联体，检查结果互认、专家资源共享。' })
      .returning()
    const demo: DemoHospital[] = [
      {
        ...DEMO.both,
        name: '示范市第一人民医院',
        shortName: '市一院',
        level: '三级甲等',
        address: '示范市中山路1号',
        phone: '0571-88880001',
        isInternet: true,
        isPalm: true,
        menus: bothMenus,
        notice: '门诊时间：周一至周日 8:00-17:00，急诊24小时开放。',
      },
      {
        ...DEMO.palm,
        name: '示范市中医院',
        shortName: '市中医院',
        level: '三级甲等',
        address: '示范市解放路88号',
        phone: '0571-88880002',
        isInternet: false,
        isPalm: true,
        menus: palmMenus,
        notice: '中医特色门诊每日开放，膏方门诊请提前预约。',
      },
      {
        ...DEMO.internet,
        name: '示范互联网医院',
        shortName: '互联网医院',
        level: '互联网医院',
        address: '示范市滨江区网商路9号',
        phone: '0571-88880003',
        isInternet: true,
        isPalm: false,
        menus: internetMenus,
        notice: '在线问诊 8:00-22:00 有医生在线，急重症请立即前往线下急诊。',
      },
      {
        ...DEMO.maternity,
        name: '示范市妇幼保健院',
        shortName: '市妇幼',
        level: '三级甲等',
        address: '示范市健康路18号',
        phone: '0571-88880004',
        isInternet: false,
        isPalm: true,
        menus: palmMenus,
        notice: '产科、儿科门诊每日开放，孕妇建档请提前预约。',
        brandless: true,
      },
      {
        ...DEMO.aixin,
        name: '示范爱心医院',
        shortName: '爱心医院',
        level: '互联网医院',
        address: '示范市仁爱路6号',
        phone: '0571-88880005',
        isInternet: true,
        isPalm: false,
        menus: aixinMenus,
        notice: '爱心医生团队在线义诊，急重症请立即前往线下急诊。',
        doctorListUrl: AIXIN_DOCTOR_LIST_URL,
        brandless: true,
      },
    ]
    for (const [i, h] of demo.entries()) {
      const [hospital] = await tx
        .insert(hospitals)
        .values({
          code: h.code,
          name: h.name,
          shortName: h.shortName,
          brandId: h.brandless ? null : brand!.id,
          appId: h.appId,
          level: h.level,
          address: h.address,
          phone: h.phone,
          intro: texts(h.name).about!,
          isInternet: h.isInternet,
          isPalm: h.isPalm,
          sort: i,
          homePageConfig: {
            notice: h.notice,
            menus: h.menus,
          },
          textConfig: texts(h.name),
        })
        .returning()
      await tx.insert(ads).values(demoAds(hospital!.id, h))
      await tx.insert(hospitalConfigs).values([
        { hospitalId: hospital!.id, key: 'register.cancelDeadline', value: '17:00' },
        { hospitalId: hospital!.id, key: 'register.holdMinutes', value: '15' },
        { hospitalId: hospital!.id, key: 'private.hisEndpoint', value: 'http://his.internal/api' },
        ...(h.isInternet ? [{ hospitalId: hospital!.id, key: CONFIG_SUPERVISION_PLATFORM, value: '示范省互联网医疗服务监管平台' }] : []),
      ])
    }
    await tx.insert(dictItems).values([
      ...['本人', '父母', '配偶', '子女', '其他'].map((label, sort) => ({ type: 'relation', label, value: String(sort), sort })),
      ...['居民身份证', '港澳居民来往内地通行证', '台湾居民来往大陆通行证', '护照'].map((label, sort) => ({ type: 'card_type', label, value: String(sort + 1), sort })),
    ])
    await tx.insert(articles).values(ARTICLES.map((a, i) => ({ ...a, publishedAt: new Date(Date.UTC(2026, 10, 20 - i * 3, 2)) })))
    await tx.insert(users).values({
      nickname: '平台管理员',
      mobileEnc: cipher.encrypt(DEMO.staffMobile),
      mobileIndex: cipher.blindIndex(DEMO.staffMobile),
      roles: ['admin'],
    })
  })
}
