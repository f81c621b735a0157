/**
 * The demo internet hospitals' medicines (issue 19): the formulary that doctors prescribe from and the shop sells,
 * the shop's categories, one pharmacy per hospital with its stock and the cities it delivers to, and its pharmacist. Seeded once per
 * hospital; a hospital that has any drug keeps what it has.
 */
import { count, eq } from 'drizzle-orm'
import type { Db } from '../db'
import { drugTypes, drugs, hospitals, pharmacists, pharmacyStores, storeShipCities, storeStock, type DrugCategory } from '../db/schema'

export const DEMO_DRUG_TYPES = ['感冒发热', '消化肠胃', '慢病用药', '维生素营养', '外用药', '中药饮片'] as const

interface DemoDrug {
  code: string
  name: string
  commonName: string
  category: DrugCategory
  spec: string
  specUnit: string
  unit: string
  dosageForm: string
  manufacturer: string
  defaultUsage: string
  price: number
  rx: boolean
  type: (typeof DEMO_DRUG_TYPES)[number]
  stock: number
}

/** [code, name, commonName, category, spec, specUnit, unit, form, maker, usage, price yuan, rx, type, stock] */
const rows: [string, string, string, DrugCategory, string, string, string, string, string, string, number, boolean, DemoDrug['type'], number][] = [
  ['X001', '阿莫西林胶囊', '阿莫西林', 'western', '0.25g*24粒', 'g', '盒', '胶囊剂', '示范制药有限公司', '每次0.5g，每日3次', 18.5, true, '感冒发热', 200],
  ['X002', '头孢克洛缓释片', '头孢克洛', 'western', '0.375g*6片', 'g', '盒', '片剂', '示范制药有限公司', '每次0.375g，每日2次', 32.8, true, '感冒发热', 120],
  ['X003', '布洛芬缓释胶囊', '布洛芬', 'western', '0.3g*20粒', 'g', '盒', '胶囊剂', '华东医药股份有限公司', '每次0.3g，每日2次', 15.9, false, '感冒发热', 300],
  ['X004', '对乙酰氨基酚片', '对乙酰氨基酚', 'western', '0.5g*12片', 'g', '盒', '片剂', '华东医药股份有限公司', '每次0.5g，必要时', 9.8, false, '感冒发热', 300],
  ['X005', '奥美拉唑肠溶胶囊', '奥美拉唑', 'western', '20mg*14粒', 'mg', '盒', '胶囊剂', '示范制药有限公司', '每次20mg，每日1次', 26.0, true, '消化肠胃', 150],
  ['X006', '蒙脱石散', '蒙脱石', 'western', '3g*10袋', 'g', '盒', '散剂', '华东医药股份有限公司', '每次3g，每日3次', 19.5, false, '消化肠胃', 200],
  ['X007', '苯磺酸氨氯地平片', '氨氯地平', 'western', '5mg*28片', 'mg', '盒', '片剂', '示范制药有限公司', '每次5mg，每日1次', 35.0, true, '慢病用药', 160],
  ['X008', '二甲双胍缓释片', '二甲双胍', 'western', '0.5g*30片', 'g', '盒', '片剂', '示范制药有限公司', '每次0.5g，每日2次', 28.6, true, '慢病用药', 160],
  ['X009', '阿托伐他汀钙片', '阿托伐他汀', 'western', '20mg*7片', 'mg', '盒', '片剂', '华东医药股份有限公司', '每次20mg，每晚1次', 42.0, true, '慢病用药', 100],
  ['X010', '维生素C片', '维生素C', 'western', '0.1g*100片', 'g', '瓶', '片剂', '华东医药股份有限公司', '每次0.1g，每日3次', 6.5, false, '维生素营养', 500],
  ['X011', '复合维生素B片', '复合维生素B', 'western', '100片', '片', '瓶', '片剂', '华东医药股份有限公司', '每次2片，每日3次', 8.9, false, '维生素营养', 400],
  ['X012', '莫匹罗星软膏', '莫匹罗星', 'western', '2%*5g', 'g', '支', '软膏剂', '示范制药有限公司', '外用，每日3次', 16.8, false, '外用药', 150],
  ['Z001', '连花清瘟胶囊', '连花清瘟', 'patent', '0.35g*24粒', 'g', '盒', '胶囊剂', '示范中药股份有限公司', '每次4粒，每日3次', 24.8, false, '感冒发热', 250],
  ['Z002', '藿香正气水', '藿香正气', 'patent', '10ml*10支', 'ml', '盒', '酊剂', '示范中药股份有限公司', '每次5-10ml，每日2次', 12.5, false, '消化肠胃', 250],
  ['C001', '黄芪', '黄芪', 'chinese', '饮片', 'g', 'g', '饮片', '示范中药饮片厂', '每剂15g', 0.12, true, '中药饮片', 20000],
  ['C002', '当归', '当归', 'chinese', '饮片', 'g', 'g', '饮片', '示范中药饮片厂', '每剂10g', 0.18, true, '中药饮片', 20000],
  ['C003', '甘草', '甘草', 'chinese', '饮片', 'g', 'g', '饮片', '示范中药饮片厂', '每剂6g', 0.08, true, '中药饮片', 20000],
]

export const DEMO_DRUGS: DemoDrug[] = rows.map(([code, name, commonName, category, spec, specUnit, unit, dosageForm, manufacturer, defaultUsage, price, rx, type, stock]) => ({
  code,
  name,
  commonName,
  category,
  spec,
  specUnit,
  unit,
  dosageForm,
  manufacturer,
  defaultUsage,
  price,
  rx,
  type,
  stock,
}))

/** The cities the demo pharmacies deliver to: the demo hospitals' province (浙江) and 上海, 广东's 广州 and 深圳. */
export const DEMO_SHIP_CITIES: [province: number, city: number][] = [
  [330000, 330100],
  [330000, 330200],
  [330000, 330300],
  [310000, 310100],
  [440000, 440100],
  [440000, 440300],
]

/** Each demo internet hospital's pharmacist (workbench login `<hospital code>P01`, seed/staff.ts). */
export const DEMO_PHARMACIST = '林药师'

export async function seedPharmacy(db: Db): Promise<void> {
  const list = await db.select({ id: hospitals.id, name: hospitals.name, address: hospitals.address }).from(hospitals).where(eq(hospitals.isInternet, true))
  for (const h of list) {
    const [has] = await db.select({ n: count() }).from(drugs).where(eq(drugs.hospitalId, h.id))
    if ((has?.n ?? 0) > 0) continue
    await db.transaction(async (tx) => {
      const types = await tx
        .insert(drugTypes)
        .values(DEMO_DRUG_TYPES.map((name, i) => ({ hospitalId: h.id, name, sort: i + 1 })))
        .returning()
      const typeId = new Map(types.map((t) => [t.name, t.id]))
      const inserted = await tx
        .insert(drugs)
        .values(
          DEMO_DRUGS.map((d) => ({
            hospitalId: h.id,
            code: d.code,
            name: d.name,
            commonName: d.commonName,
            category: d.category,
            spec: d.spec,
            specUnit: d.specUnit,
            unit: d.unit,
            dosageForm: d.dosageForm,
            manufacturer: d.manufacturer,
            defaultUsage: d.defaultUsage,
            priceFen: Math.round(d.price * 100),
            rx: d.rx,
            onShelf: d.category !== 'chinese',
            typeId: typeId.get(d.type) ?? null,
          })),
        )
        .returning({ id: drugs.id, code: drugs.code })
      const [store] = await tx
        .insert(pharmacyStores)
        .values({
          hospitalId: h.id,
          name: `${h.name}互联网药房`,
          address: h.address,
          phone: '0571-88886666',
          hours: '08:00-20:00',
          intro: '医院自营药房，执业药师在线审方，处方药凭医生处方购买。支持快递配送到家或到院自提，自提凭取药码取药。',
          expressFeeFen: 1500,
          freeShippingFromFen: 9900,
        })
        .returning()
      const stockOf = new Map(DEMO_DRUGS.map((d) => [d.code, d.stock]))
      await tx.insert(storeStock).values(inserted.map((d) => ({ storeId: store!.id, drugId: d.id, quantity: stockOf.get(d.code) ?? 0 })))
      await tx.insert(pharmacists).values({ hospitalId: h.id, name: DEMO_PHARMACIST, title: '主管药师' })
      await tx.insert(storeShipCities).values(DEMO_SHIP_CITIES.map(([provinceCode, cityCode]) => ({ storeId: store!.id, provinceCode, cityCode })))
    })
  }
}
