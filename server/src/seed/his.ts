/**
 * The sandbox HIS of the demo palm hospitals: a price catalogue of a few hundred drugs, tests, examinations,
 * treatments, materials and services (made from short lists by a seeded generator, so every database gets the same
 * codes and prices), the queues of each place and window, and unpaid bills for the demo people (README, demo people):
 * the identity-card photos' 张三丰 and 李秀英, the health card's 王小明 and the insurance platform's 孙建国; and one stay
 * in hospital, 王小明's at 10392, with three days of charges and a deposit about to run out (the low-deposit warning).
 * Runs at every start; each part is seeded once per hospital.
 */
import { and, count, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Db } from '../db'
import type { FieldCipher } from '../crypto'
import { departments, doctors, hisAdmissions, hisBills, hisDepositEntries, hisPriceItems, hisQueues, hospitals } from '../db/schema'
import { HIS_PLACES, CATEGORY_NAMES, sandboxHis } from '../plugins/providers/hisSandbox'
import { SANDBOX_HEALTH_CARD_HOLDERS } from '../plugins/providers/healthCard'
import { SANDBOX_INSURED } from '../plugins/providers/insurance'
import { addDays, hospitalToday } from '../domain/register/rules'
import { generator } from './register'
import { seedReports } from './reports'
import { seedPhysical } from './physical'
import { seedMedTech } from './medtech'

// ---- the catalogue ------------------------------------------------------------------------------------------------

/** [name, specs, unit, price of the first spec in yuan]; each further spec costs more (a larger strength or pack). */
type Line = [string, string[], string, number]

const WESTERN: Line[] = [
  ['阿莫西林胶囊', ['0.25g×24粒', '0.5g×24粒'], '盒', 9.8], ['头孢呋辛酯片', ['0.25g×12片'], '盒', 28.5], ['头孢克洛胶囊', ['0.25g×12粒'], '盒', 24.6],
  ['阿奇霉素片', ['0.25g×6片'], '盒', 18.9], ['左氧氟沙星片', ['0.5g×4片'], '盒', 16.5], ['克拉霉素片', ['0.25g×6片'], '盒', 21.3],
  ['甲硝唑片', ['0.2g×100片'], '瓶', 6.5], ['布洛芬缓释胶囊', ['0.3g×20粒'], '盒', 12.8], ['对乙酰氨基酚片', ['0.5g×12片'], '盒', 5.6],
  ['双氯芬酸钠缓释片', ['75mg×10片'], '盒', 15.2], ['塞来昔布胶囊', ['0.2g×6粒'], '盒', 31.5], ['盐酸氨溴索片', ['30mg×20片'], '盒', 9.9],
  ['复方甘草片', ['100片'], '瓶', 8], ['孟鲁司特钠片', ['10mg×5片'], '盒', 29.8], ['氯雷他定片', ['10mg×6片'], '盒', 14.6],
  ['盐酸西替利嗪片', ['10mg×12片'], '盒', 16.8], ['奥美拉唑肠溶胶囊', ['20mg×14粒'], '盒', 19.6], ['雷贝拉唑钠肠溶片', ['10mg×7片', '20mg×7片'], '盒', 26.8],
  ['铝碳酸镁咀嚼片', ['0.5g×20片'], '盒', 16.4], ['多潘立酮片', ['10mg×30片'], '盒', 13.5], ['蒙脱石散', ['3g×10袋'], '盒', 12.6],
  ['枯草杆菌二联活菌肠溶胶囊', ['250mg×20粒'], '盒', 32.4], ['硝苯地平控释片', ['30mg×7片'], '盒', 23.5], ['苯磺酸氨氯地平片', ['5mg×7片'], '盒', 10.9],
  ['缬沙坦胶囊', ['80mg×7粒'], '盒', 17.6], ['厄贝沙坦片', ['0.15g×7片'], '盒', 15.8], ['琥珀酸美托洛尔缓释片', ['47.5mg×7片'], '盒', 21.6],
  ['阿托伐他汀钙片', ['10mg×7片', '20mg×7片'], '盒', 8.4], ['瑞舒伐他汀钙片', ['10mg×7片'], '盒', 13.7], ['阿司匹林肠溶片', ['100mg×30片'], '盒', 15.9],
  ['硫酸氢氯吡格雷片', ['75mg×7片'], '盒', 18.2], ['单硝酸异山梨酯缓释片', ['40mg×24片'], '盒', 26.3], ['螺内酯片', ['20mg×100片'], '瓶', 9.8],
  ['氢氯噻嗪片', ['25mg×100片'], '瓶', 5.2], ['盐酸二甲双胍缓释片', ['0.5g×30片'], '盒', 9.6], ['格列美脲片', ['2mg×15片'], '盒', 19.8],
  ['阿卡波糖片', ['50mg×30片'], '盒', 36.6], ['磷酸西格列汀片', ['100mg×7片'], '盒', 42.8], ['左甲状腺素钠片', ['50μg×100片'], '瓶', 27.5],
  ['甲巯咪唑片', ['10mg×50片'], '瓶', 18.4], ['碳酸钙D3片', ['0.6g×60片'], '瓶', 32.5], ['骨化三醇软胶囊', ['0.25μg×10粒'], '盒', 28.9],
  ['醋酸泼尼松片', ['5mg×100片'], '瓶', 9.1], ['甲泼尼龙片', ['4mg×30片'], '盒', 24.3], ['艾司唑仑片', ['1mg×20片'], '盒', 4.9],
  ['佐匹克隆片', ['7.5mg×12片'], '盒', 17.5], ['盐酸舍曲林片', ['50mg×14片'], '盒', 38.6], ['草酸艾司西酞普兰片', ['10mg×7片'], '盒', 45.2],
  ['甲钴胺片', ['0.5mg×20片'], '盒', 19.9], ['维生素B1片', ['10mg×100片'], '瓶', 3.5], ['叶酸片', ['0.4mg×31片'], '盒', 12.5],
  ['多糖铁复合物胶囊', ['150mg×10粒'], '盒', 26.8], ['盐酸坦索罗辛缓释胶囊', ['0.2mg×10粒'], '盒', 33.6], ['非那雄胺片', ['5mg×10片'], '盒', 36.8],
  ['布地奈德鼻喷雾剂', ['64μg×120喷'], '支', 58.6], ['硫酸沙丁胺醇吸入气雾剂', ['100μg×200揿'], '支', 26.5], ['沙美特罗替卡松吸入粉雾剂', ['50μg/250μg×60吸'], '盒', 198],
  ['妥布霉素地塞米松滴眼液', ['5ml'], '支', 36.5], ['玻璃酸钠滴眼液', ['0.1%×5ml'], '支', 28.7], ['左氧氟沙星滴眼液', ['5ml:15mg'], '支', 19.6],
  ['莫匹罗星软膏', ['2%×5g'], '支', 16.3], ['丁酸氢化可的松乳膏', ['0.1%×10g'], '支', 18.6], ['曲安奈德益康唑乳膏', ['15g'], '支', 14.2],
  ['0.9%氯化钠注射液', ['100ml', '250ml'], '袋', 3.2], ['5%葡萄糖注射液', ['250ml'], '袋', 3.5], ['注射用头孢曲松钠', ['1.0g'], '支', 12.6],
  ['注射用阿莫西林克拉维酸钾', ['1.2g'], '支', 18.9], ['地塞米松磷酸钠注射液', ['5mg:1ml'], '支', 0.9], ['盐酸利多卡因注射液', ['0.1g:5ml'], '支', 1.2],
]

const PATENT: Line[] = [
  ['连花清瘟胶囊', ['0.35g×24粒', '0.35g×36粒'], '盒', 14.8], ['蓝芩口服液', ['10ml×6支'], '盒', 28.6], ['蒲地蓝消炎口服液', ['10ml×10支'], '盒', 36],
  ['急支糖浆', ['200ml'], '瓶', 22.5], ['复方鲜竹沥液', ['20ml×6支'], '盒', 18.6], ['苏黄止咳胶囊', ['0.45g×24粒'], '盒', 38.9],
  ['藿香正气口服液', ['10ml×10支'], '盒', 19.8], ['小柴胡颗粒', ['10g×10袋'], '盒', 16.5], ['板蓝根颗粒', ['10g×20袋'], '包', 15],
  ['复方丹参滴丸', ['27mg×180丸'], '瓶', 29.6], ['麝香保心丸', ['22.5mg×42丸'], '瓶', 36.8], ['银杏叶片', ['19.2mg×24片'], '盒', 22.4],
  ['脑心通胶囊', ['0.4g×48粒'], '盒', 42.6], ['六味地黄丸', ['200丸'], '瓶', 18], ['逍遥丸', ['200丸'], '瓶', 16.5], ['归脾丸', ['200丸'], '瓶', 19.8],
  ['补中益气丸', ['200丸'], '瓶', 17.6], ['香砂养胃丸', ['200丸'], '瓶', 14.8], ['保和丸', ['200丸'], '瓶', 12.6], ['金水宝胶囊', ['0.33g×72粒'], '盒', 48.5],
  ['百令胶囊', ['0.5g×42粒'], '盒', 52.8], ['血府逐瘀胶囊', ['0.4g×36粒'], '盒', 32.5], ['独一味胶囊', ['0.3g×36粒'], '盒', 28.6],
  ['云南白药气雾剂', ['85g+30g'], '盒', 42], ['麝香壮骨膏', ['7cm×10cm×4贴'], '盒', 12.8],
]

/** Herbs priced per gram (fen per gram): [name, fen]. */
const HERBS: [string, number][] = [
  ['黄芪', 12], ['党参', 28], ['白术', 18], ['茯苓', 10], ['甘草', 8], ['当归', 32], ['川芎', 15], ['白芍', 14], ['熟地黄', 12], ['生地黄', 10],
  ['陈皮', 8], ['法半夏', 45], ['柴胡', 35], ['黄芩', 12], ['黄连', 60], ['金银花', 55], ['连翘', 18], ['板蓝根', 6], ['桔梗', 10], ['苦杏仁', 14],
  ['麦冬', 38], ['五味子', 30], ['山药', 10], ['山茱萸', 42], ['枸杞子', 24], ['菊花', 20], ['薄荷', 6], ['防风', 28], ['荆芥', 8], ['桂枝', 6],
  ['丹参', 10], ['红花', 60], ['桃仁', 26], ['赤芍', 16], ['牛膝', 14], ['杜仲', 12], ['续断', 14], ['酸枣仁', 95], ['远志', 40], ['茯神', 16],
  ['龙骨', 6], ['牡蛎', 4], ['泽泻', 8], ['车前子', 8], ['大枣', 6], ['生姜', 4], ['砂仁', 120], ['木香', 12], ['厚朴', 10], ['枳壳', 8],
]

/** [name, spec, unit, yuan, place]; prices of the provincial schedule are whole yuan. */
type Service = [string, string, string, number, string]

const LABS: Service[] = (
  [
    ['血常规（五分类）', 22], ['C反应蛋白', 25], ['降钙素原', 120], ['红细胞沉降率', 8], ['尿常规', 15], ['粪便常规+隐血', 18], ['肝功能（11项）', 85],
    ['肾功能（3项）', 32], ['血脂四项', 48], ['空腹血糖', 8], ['糖化血红蛋白', 70], ['电解质（钾钠氯钙）', 30], ['心肌酶谱', 90], ['肌钙蛋白I', 80],
    ['N端脑钠肽前体', 180], ['D-二聚体', 75], ['凝血四项', 65], ['甲状腺功能五项', 150], ['乙肝两对半（定量）', 95], ['丙型肝炎抗体', 45],
    ['梅毒螺旋体抗体', 35], ['HIV抗体', 40], ['甲胎蛋白+癌胚抗原', 90], ['前列腺特异性抗原', 60], ['糖类抗原125', 65], ['尿微量白蛋白', 30],
    ['血尿酸', 10], ['同型半胱氨酸', 60], ['幽门螺杆菌（C13呼气试验）', 150], ['甲型乙型流感病毒抗原', 80], ['呼吸道病原体IgM抗体', 120],
    ['血型鉴定（ABO+Rh）', 20], ['性激素六项', 160], ['人绒毛膜促性腺激素（β-HCG）', 45], ['25-羟基维生素D', 120], ['血清铁蛋白', 45],
    ['叶酸+维生素B12', 110], ['白带常规', 20], ['痰培养+药敏', 120], ['尿培养+药敏', 120], ['过敏原检测（20项）', 280],
    ['免疫球蛋白（IgG/IgA/IgM）', 60], ['类风湿因子', 25], ['抗链球菌溶血素O', 25],
  ] as [string, number][]
).map(([name, yuan]) => [name, '项', '项', yuan, '检验科采血处'])

const EXAMS: Service[] = [
  ...(['头颅', '鼻窦', '胸部', '上腹部', '全腹部', '颈椎', '腰椎', '膝关节'] as const).map((part, i): Service => [`${part}CT`, '平扫', '部位', 180 + i * 20, '放射科CT室']),
  ...(['头颅', '胸部', '上腹部'] as const).map((part, i): Service => [`${part}CT`, '平扫+增强', '部位', 560 + i * 40, '放射科CT室']),
  ...(['头颅', '颈椎', '腰椎', '膝关节', '肩关节', '上腹部'] as const).map((part, i): Service => [`${part}磁共振`, '平扫', '部位', 480 + i * 40, '放射科磁共振室']),
  ['头颅磁共振', '平扫+增强', '部位', 980, '放射科磁共振室'],
  ...(['胸部正位', '胸部正侧位', '颈椎正侧位', '腰椎正侧位', '膝关节正侧位', '腕关节正侧位'] as const).map((part, i): Service => [`${part}X线摄影`, 'DR', '部位', 50 + i * 12, '放射科DR室']),
  ...(
    [['肝胆胰脾', 140], ['泌尿系', 120], ['甲状腺及颈部淋巴结', 130], ['乳腺及腋窝淋巴结', 150], ['子宫附件（经腹）', 120], ['子宫附件（经阴道）', 150],
      ['心脏', 260], ['颈动脉', 180], ['双下肢静脉', 220], ['早孕', 100]] as [string, number][]
  ).map(([part, yuan]): Service => [`${part}彩色超声`, '彩色多普勒', '次', yuan, '超声科']),
  ['常规心电图', '十二导联', '次', 25, '心电图室'],
  ['动态心电图', '24小时', '次', 220, '心电图室'],
  ['动态血压监测', '24小时', '次', 180, '心电图室'],
  ['电子胃镜检查', '普通', '次', 260, '内镜中心'],
  ['电子胃镜检查', '无痛（麻醉另计）', '次', 380, '内镜中心'],
  ['电子结肠镜检查', '普通', '次', 380, '内镜中心'],
  ['电子结肠镜检查', '无痛（麻醉另计）', '次', 520, '内镜中心'],
]

const TREATMENTS: Service[] = [
  ['静脉输液', '第一组', '次', 15, '门诊治疗室'], ['静脉输液', '每增加一组', '组', 4, '门诊治疗室'], ['肌肉注射', '', '次', 3, '门诊治疗室'],
  ['皮下注射', '', '次', 3, '门诊治疗室'], ['静脉注射', '', '次', 6, '门诊治疗室'], ['雾化吸入', '', '次', 12, '门诊治疗室'],
  ['换药', '小', '次', 18, '门诊治疗室'], ['换药', '中', '次', 28, '门诊治疗室'], ['清创缝合', '小（5cm以下）', '次', 120, '门诊治疗室'],
  ['拆线', '', '次', 20, '门诊治疗室'], ['导尿', '', '次', 35, '门诊治疗室'], ['吸氧', '', '小时', 4, '门诊治疗室'],
  ['普通针刺', '', '次', 25, '针灸推拿治疗室'], ['电针', '', '次', 35, '针灸推拿治疗室'], ['温针灸', '', '次', 40, '针灸推拿治疗室'],
  ['艾灸', '', '次', 25, '针灸推拿治疗室'], ['拔罐', '', '罐', 3, '针灸推拿治疗室'], ['推拿', '颈部', '次', 60, '针灸推拿治疗室'],
  ['推拿', '腰部', '次', 60, '针灸推拿治疗室'], ['刮痧', '', '次', 40, '针灸推拿治疗室'], ['穴位贴敷', '', '穴位', 20, '针灸推拿治疗室'],
  ['中药熏洗', '', '次', 50, '针灸推拿治疗室'],
]

const MATERIALS: [string, string, string, number][] = [
  ['一次性使用输液器', '带针', '套', 3.5], ['静脉留置针', '22G', '支', 18], ['医用纱布块', '8cm×10cm×8层', '块', 1.2], ['弹力绷带', '10cm×4.5m', '卷', 12.6],
  ['医用胶布', '1.25cm×9.1m', '卷', 4.8], ['一次性使用无菌注射器', '5ml', '支', 0.8], ['医用无菌敷贴', '6cm×7cm', '贴', 3.5], ['一次性雾化面罩', '成人', '个', 15],
]

const SERVICES: Service[] = [
  ['门诊病历本', '', '本', 1, ''], ['中医辨证论治', '', '次', 20, ''], ['心理咨询', '每次50分钟', '次', 100, ''], ['营养风险筛查', '', '次', 30, ''], ['健康教育咨询', '', '次', 10, ''],
]

export interface CatalogueItem {
  code: string
  category: string
  name: string
  spec: string
  unit: string
  priceFen: number
  place: string
  sort: number
}

/** Rounds like a price schedule: to 0.1 yuan above 5 yuan, to the fen below. */
const roundFen = (fen: number) => (fen > 500 ? Math.round(fen / 10) * 10 : Math.max(1, Math.round(fen)))

/** The catalogue of one hospital: the same items and codes everywhere, prices a few percent apart (seeded by the code). */
export function priceCatalogue(hospitalCode: string): CatalogueItem[] {
  const rnd = generator(`prices:${hospitalCode}`)
  const noise = () => 0.94 + rnd.next() * 0.12
  const out: CatalogueItem[] = []
  const serial = new Map<string, number>()
  const add = (prefix: string, name: string, spec: string, unit: string, priceFen: number, place: string) => {
    const n = (serial.get(prefix) ?? 0) + 1
    serial.set(prefix, n)
    out.push({ code: `${prefix}${String(n).padStart(4, '0')}`, category: CATEGORY_NAMES[prefix]!.category, name, spec, unit, priceFen, place, sort: out.length + 1 })
  }
  const drugs = (prefix: string, lines: Line[]) => {
    for (const [name, specs, unit, yuan] of lines) {
      let fen = yuan * 100 * noise()
      for (const spec of specs) {
        add(prefix, name, spec, unit, roundFen(fen), '门诊西药房')
        fen *= 1.55 + rnd.next() * 0.35
      }
    }
  }
  drugs('XY', WESTERN)
  drugs('ZC', PATENT)
  for (const [name, fen] of HERBS) add('ZY', name, '饮片', '克', Math.max(1, Math.round(fen * noise())), '中药房')
  // dispensing granules (配方颗粒) of the common herbs: a sachet stands for 10 g of the herb and costs about twice as much
  for (const [name, fen] of HERBS.slice(0, 40)) add('ZY', `${name}配方颗粒`, '每袋相当于饮片10g', '袋', roundFen(fen * 10 * (1.7 + rnd.next() * 0.4)), '中药房')
  for (const [name, spec, unit, yuan, place] of LABS) add('JY', name, spec, unit, Math.round(yuan * noise()) * 100, place)
  for (const [name, spec, unit, yuan, place] of EXAMS) add('JC', name, spec, unit, Math.round(yuan * noise()) * 100, place)
  for (const [name, spec, unit, yuan, place] of TREATMENTS) add('ZL', name, spec, unit, Math.round(yuan * noise()) * 100, place)
  for (const [name, spec, unit, yuan] of MATERIALS) add('CL', name, spec, unit, roundFen(yuan * 100 * noise()), '门诊治疗室')
  for (const [name, spec, unit, yuan, place] of SERVICES) add('FW', name, spec, unit, yuan * 100, place)
  return out
}

/** Each place's windows (or rooms) and their numbers. */
function queuesOf(hospitalCode: string) {
  const noun = { pharmacy: '号窗口', lab: '号窗口', exam: '号检查室', treatment: '号治疗间' } as const
  return Object.entries(HIS_PLACES).flatMap(([place, p]) =>
    Array.from({ length: p.windows }, (_, i) => ({ hospitalCode, kind: p.kind, place, window: `${i + 1}${noun[p.kind]}`, location: p.location, prefix: p.prefix })),
  )
}

// ---- the demo people's bills ------------------------------------------------------------------------------------

const person = (name: string, idCard: string) => ({ name, idCard })
const OCR_PEOPLE = { zhang: person('张三丰', '11010519800512001X'), li: person('李秀英', '440305199208170027') }
const wang = SANDBOX_HEALTH_CARD_HOLDERS[0]!
const sun = SANDBOX_INSURED[0]!

interface DemoVisit {
  who: { name: string; idCard: string }
  dept: string
  daysAgo: number
  /** [item name, spec ('' for the first), quantity] */
  items: [string, string, number][]
}

const DEMO_VISITS: Record<string, DemoVisit[]> = {
  '10392': [
    {
      who: OCR_PEOPLE.zhang,
      dept: '呼吸与危重症医学科',
      daysAgo: 0,
      items: [['血常规（五分类）', '', 1], ['C反应蛋白', '', 1], ['胸部CT', '平扫', 1], ['阿莫西林胶囊', '0.5g×24粒', 2], ['盐酸氨溴索片', '', 1]],
    },
    { who: OCR_PEOPLE.li, dept: '妇科', daysAgo: 0, items: [['子宫附件（经腹）彩色超声', '', 1], ['白带常规', '', 1], ['人绒毛膜促性腺激素（β-HCG）', '', 1]] },
    {
      who: wang,
      dept: '心血管内科',
      daysAgo: 0,
      items: [['常规心电图', '', 1], ['血脂四项', '', 1], ['苯磺酸氨氯地平片', '', 2], ['阿托伐他汀钙片', '20mg×7片', 2]],
    },
    { who: wang, dept: '消化内科', daysAgo: 1, items: [['幽门螺杆菌（C13呼气试验）', '', 1], ['奥美拉唑肠溶胶囊', '', 2]] },
    { who: sun, dept: '内分泌科', daysAgo: 0, items: [['糖化血红蛋白', '', 1], ['空腹血糖', '', 1], ['盐酸二甲双胍缓释片', '', 3]] },
  ],
  '10388': [
    {
      who: wang,
      dept: '中医内科',
      daysAgo: 0,
      items: [['黄芪', '', 105], ['党参', '', 70], ['白术', '', 70], ['茯苓', '', 105], ['陈皮', '', 42], ['甘草', '', 42], ['中医辨证论治', '', 1]],
    },
    { who: OCR_PEOPLE.zhang, dept: '针灸推拿科', daysAgo: 0, items: [['电针', '', 5], ['推拿', '腰部', 5]] },
  ],
}

async function seedDemoBills(db: Db, cipher: FieldCipher, hospital: typeof hospitals.$inferSelect, catalogue: CatalogueItem[], now: Date) {
  const visits = DEMO_VISITS[hospital.code] ?? []
  const his = sandboxHis(db, cipher)
  const today = hospitalToday(now)
  for (const [i, v] of visits.entries()) {
    const [doctor] = await db
      .select({ name: doctors.name })
      .from(doctors)
      .innerJoin(departments, eq(departments.id, doctors.deptId))
      .where(and(eq(doctors.hospitalId, hospital.id), eq(departments.name, v.dept), isNotNull(departments.parentId)))
      .orderBy(doctors.sort, doctors.id)
      .limit(1)
    const items = v.items.map(([name, spec, quantity]) => {
      const found = catalogue.find((c) => c.name === name && (!spec || c.spec === spec))
      if (!found) throw new Error(`seed: no catalogue item ${name} ${spec}`)
      return { code: found.code, quantity }
    })
    const visitDate = addDays(today, -v.daysAgo)
    await his.issueOrders(
      {
        hospitalCode: hospital.code,
        patient: { cardNo: null, idCard: v.who.idCard, name: v.who.name },
        visitNo: `MZ${visitDate.replace(/-/g, '')}${String(i + 1).padStart(4, '0')}`,
        visitDate,
        deptName: v.dept,
        doctorName: doctor?.name ?? '门诊医生',
        items,
      },
      new Date(now.getTime() - v.daysAgo * 86_400_000),
    )
  }
}

// ---- the demo stay in hospital -----------------------------------------------------------------------------------

interface DemoStay {
  who: { name: string; idCard: string }
  dept: string
  ward: string
  bed: string
  daysAgo: number
  /** Each day's charges, oldest first, ending yesterday: [item name, spec ('' for the first), quantity]. */
  days: [string, string, number][][]
}

/** 王小明, in 心血管内科 for chest pain: tests and an echo on the first day, then drips, tablets and oxygen. */
const DEMO_STAYS: Record<string, DemoStay> = {
  '10392': {
    who: wang,
    dept: '心血管内科',
    ward: '心内科一病区',
    bed: '12床',
    daysAgo: 4,
    days: [
      [
        ['血常规（五分类）', '', 1], ['心肌酶谱', '', 1], ['肌钙蛋白I', '', 1], ['N端脑钠肽前体', '', 1], ['肝功能（11项）', '', 1], ['肾功能（3项）', '', 1],
        ['电解质（钾钠氯钙）', '', 1], ['凝血四项', '', 1], ['常规心电图', '', 1], ['心脏彩色超声', '', 1], ['0.9%氯化钠注射液', '250ml', 2],
        ['静脉输液', '第一组', 1], ['静脉输液', '每增加一组', 1], ['静脉留置针', '', 1], ['一次性使用输液器', '', 2], ['吸氧', '', 8],
        ['阿司匹林肠溶片', '', 1], ['阿托伐他汀钙片', '20mg×7片', 1],
      ],
      [
        ['动态心电图', '', 1], ['0.9%氯化钠注射液', '250ml', 2], ['静脉输液', '第一组', 1], ['静脉输液', '每增加一组', 1], ['一次性使用输液器', '', 2],
        ['吸氧', '', 6], ['硫酸氢氯吡格雷片', '', 1], ['单硝酸异山梨酯缓释片', '', 1],
      ],
      [['肌钙蛋白I', '', 1], ['电解质（钾钠氯钙）', '', 1], ['0.9%氯化钠注射液', '250ml', 1], ['静脉输液', '第一组', 1], ['一次性使用输液器', '', 1], ['吸氧', '', 4]],
    ],
  },
}

/** The demo stay: admitted `daysAgo`, a day's charges on each of the last days, and a deposit paid at the admission
 * window that leaves less than an average day's cost (so the deposit page warns). */
async function seedDemoStay(db: Db, cipher: FieldCipher, hospital: typeof hospitals.$inferSelect, catalogue: CatalogueItem[], now: Date) {
  const stay = DEMO_STAYS[hospital.code]
  if (!stay) return
  const his = sandboxHis(db, cipher)
  const [doctor] = await db
    .select({ name: doctors.name })
    .from(doctors)
    .innerJoin(departments, eq(departments.id, doctors.deptId))
    .where(and(eq(doctors.hospitalId, hospital.id), eq(departments.name, stay.dept), isNotNull(departments.parentId)))
    .orderBy(doctors.sort, doctors.id)
    .limit(1)
  const admittedAt = new Date(now.getTime() - stay.daysAgo * 86_400_000)
  const admission = await his.admit(
    { hospitalCode: hospital.code, patient: { cardNo: null, idCard: stay.who.idCard, name: stay.who.name }, deptName: stay.dept, ward: stay.ward, bed: stay.bed, doctorName: doctor?.name ?? '住院医生' },
    admittedAt,
  )
  const today = hospitalToday(now)
  let costFen = 0
  for (const [i, lines] of stay.days.entries()) {
    const items = lines.map(([name, spec, quantity]) => {
      const found = catalogue.find((c) => c.name === name && (!spec || c.spec === spec))
      if (!found) throw new Error(`seed: no catalogue item ${name} ${spec}`)
      costFen += found.priceFen * quantity
      return { code: found.code, quantity }
    })
    await his.postCharges({ hospitalCode: hospital.code, admissionNo: admission.admissionNo, date: addDays(today, i - stay.days.length), items }, now)
  }
  // about half an average day left, in whole hundreds of yuan as paid at the window
  const averageFen = costFen / stay.days.length
  const depositFen = Math.round((costFen + averageFen / 2) / 10_000) * 10_000
  const [row] = await db.select({ id: hisAdmissions.id }).from(hisAdmissions).where(and(eq(hisAdmissions.hospitalCode, hospital.code), eq(hisAdmissions.admissionNo, admission.admissionNo)))
  await db.insert(hisDepositEntries).values({ admissionId: row!.id, kind: 'deposit', amountFen: depositFen, orderNo: `WINDOW${admission.admissionNo}`, channel: 'window', at: admittedAt })
}

/** The sandbox HIS of every demo palm hospital that has none yet: catalogue, queues, the demo people's bills and stay. */
export async function seedHis(db: Db, cipher: FieldCipher, now = new Date()): Promise<void> {
  const palm = await db.select().from(hospitals).where(and(eq(hospitals.isPalm, true), inArray(hospitals.code, ['10392', '10388'])))
  for (const hospital of palm) {
    const catalogue = priceCatalogue(hospital.code)
    const [has] = await db.select({ n: count() }).from(hisPriceItems).where(eq(hisPriceItems.hospitalCode, hospital.code))
    if ((has?.n ?? 0) === 0) {
      await db.transaction(async (tx) => {
        for (let i = 0; i < catalogue.length; i += 200) await tx.insert(hisPriceItems).values(catalogue.slice(i, i + 200).map((c) => ({ ...c, hospitalCode: hospital.code })))
        await tx.insert(hisQueues).values(queuesOf(hospital.code)).onConflictDoNothing()
      })
    }
    const [billed] = await db.select({ n: count() }).from(hisBills).where(eq(hisBills.hospitalCode, hospital.code))
    if ((billed?.n ?? 0) === 0) await seedDemoBills(db, cipher, hospital, catalogue, now)
    const [stays] = await db.select({ n: count() }).from(hisAdmissions).where(eq(hisAdmissions.hospitalCode, hospital.code))
    if ((stays?.n ?? 0) === 0) await seedDemoStay(db, cipher, hospital, catalogue, now)
    await seedReports(db, cipher, hospital.code, now)
    await seedPhysical(db, cipher, hospital.code, now)
    await seedMedTech(db, cipher, hospital, catalogue, now)
  }
}
