import type { CheckCategory, CheckItem, CheckItemContent } from '../../../../types/api/healthTools'
import { HEALTH_TOOL_DISCLAIMER } from '@/utils/healthTools'

/**
 * 化验单解读 (spec §2 /internet/inspectRead): common laboratory items with a typical adult reference range and a
 * plain-language explanation, kept as data (no tables: the content is the hospital's reading aid, the same for all).
 *
 * The ranges are those of the Chinese health-industry standards where one exists (WS/T 405-2012 blood count,
 * WS/T 404 clinical chemistry), of the Chinese lipid guideline (2023) for lipids, of the diabetes guideline (2020) for
 * glucose, and common assay ranges for thyroid hormones. The wording is careful and conservative: what may cause a
 * value, never a diagnosis, and when to see a doctor.
 */
export const REFERENCE_NOTE =
  '这里列出的是成人常用参考范围。参考范围因医院、检测仪器和方法不同而不同，也会因年龄、性别、是否怀孕等有差异，请以您检验单上标注的参考范围为准。'

interface ItemText extends CheckItem {
  measures: string
  high: string
  low: string
  advice: string
}

type Draft = Omit<ItemText, 'qualitative'> & { qualitative?: boolean }

const NEGATIVE = '阴性（-）'

/** A qualitative urine item: its "high" is a positive result, and it has no "low". */
const urine = (item: Omit<Draft, 'unit' | 'reference' | 'low'>): Draft => ({ ...item, unit: '', reference: NEGATIVE, low: '', qualitative: true })

const CATEGORIES: { name: string; items: Draft[] }[] = [
  {
    name: '血常规',
    items: [
      {
        id: 'wbc',
        name: '白细胞计数',
        abbr: 'WBC',
        unit: '×10⁹/L',
        reference: '3.5–9.5',
        measures: '血液中白细胞的数量。白细胞是身体抵抗细菌、病毒等病原体的“卫士”。',
        high: '常见于细菌感染等炎症，也可见于剧烈运动、情绪激动、怀孕、吸烟或使用激素类药物后；明显或持续升高时需要排查血液系统疾病。',
        low: '可见于病毒感染、某些药物影响（如部分抗肿瘤药、抗甲状腺药）、脾功能亢进，以及放疗、化疗后等；明显降低时容易发生感染。',
        advice: '轻度偏高或偏低而没有不适，多可由医生判断后复查。伴有发热、明显乏力、反复感染或出血时，请及时就医。',
      },
      {
        id: 'neut',
        name: '中性粒细胞百分比',
        abbr: 'NEUT%',
        unit: '%',
        reference: '40–75',
        measures: '中性粒细胞占白细胞总数的比例。中性粒细胞是白细胞中最多的一种，主要对付细菌感染。',
        high: '常见于细菌感染、急性炎症、组织损伤，也可见于身体应激或使用激素后。',
        low: '可见于病毒感染、某些药物影响、放疗或化疗后等。',
        advice: '请结合白细胞总数和中性粒细胞绝对值一起看，单看百分比意义有限。有发热等症状时请就医。',
      },
      {
        id: 'lymph',
        name: '淋巴细胞百分比',
        abbr: 'LYMPH%',
        unit: '%',
        reference: '20–50',
        measures: '淋巴细胞占白细胞总数的比例。淋巴细胞参与抵抗病毒感染和调节免疫。',
        high: '常见于病毒感染等；中性粒细胞减少时，淋巴细胞的比例也会相对升高。',
        low: '可见于细菌感染急性期（中性粒细胞比例升高时相对降低）、使用激素、免疫功能低下等。',
        advice: '百分比会受其他白细胞变化的影响，请结合白细胞总数和绝对值一起判断；持续异常请咨询医生。',
      },
      {
        id: 'rbc',
        name: '红细胞计数',
        abbr: 'RBC',
        unit: '×10¹²/L',
        reference: '男 4.3–5.8；女 3.8–5.1',
        measures: '血液中红细胞的数量。红细胞负责把氧气运送到全身。',
        high: '可见于脱水、长期缺氧（如生活在高原、慢性肺病、吸烟），少数为真性红细胞增多症等血液病。',
        low: '常见于各种贫血，如缺铁、失血、营养不良，以及慢性病、骨髓造血异常等。',
        advice: '请结合血红蛋白一起看。贫血的原因很多，需由医生查明原因后处理，不要自行长期服用补血药。',
      },
      {
        id: 'hgb',
        name: '血红蛋白',
        abbr: 'HGB',
        unit: 'g/L',
        reference: '男 130–175；女 115–150',
        measures: '红细胞中运输氧气的蛋白质，是判断有没有贫血的主要指标。',
        high: '可见于脱水、长期缺氧（如生活在高原、慢性肺病、吸烟）、真性红细胞增多症等。',
        low: '提示贫血，常见原因有缺铁（如月经量多、消化道出血）、叶酸或维生素B12缺乏、慢性病、肾脏病和血液病等。',
        advice: '血红蛋白偏低时需要查明贫血的原因，中老年人不明原因的贫血应排查消化道出血。头晕、心慌、气短、面色苍白加重时，请尽快就医。',
      },
      {
        id: 'hct',
        name: '红细胞压积',
        abbr: 'HCT',
        unit: '%',
        reference: '男 40–50；女 35–45',
        measures: '红细胞在全部血液中所占的体积比例。',
        high: '可见于脱水（如大量出汗、腹泻、呕吐）、长期缺氧、红细胞增多症等。',
        low: '多见于贫血，也可见于大量输液后血液被稀释。',
        advice: '通常与红细胞计数、血红蛋白一起判断，单独轻度异常意义有限。',
      },
      {
        id: 'mcv',
        name: '平均红细胞体积',
        abbr: 'MCV',
        unit: 'fL',
        reference: '82–100',
        measures: '单个红细胞的平均大小，可以帮助判断贫血的类型。',
        high: '红细胞偏大，可见于维生素B12或叶酸缺乏、长期饮酒、肝病、甲状腺功能减退和某些药物影响等。',
        low: '红细胞偏小，常见于缺铁性贫血和地中海贫血（我国南方较常见）。',
        advice: '有贫血时，医生会结合这一指标查找原因（如查铁蛋白、维生素B12、血红蛋白电泳等）。没有贫血而轻度异常时，可咨询医生是否需要进一步检查。',
      },
      {
        id: 'plt',
        name: '血小板计数',
        abbr: 'PLT',
        unit: '×10⁹/L',
        reference: '125–350',
        measures: '血液中血小板的数量。血小板参与止血和凝血。',
        high: '可见于感染或炎症、缺铁、出血后、脾切除后等，少数为骨髓增殖性疾病；明显升高可能增加血栓风险。',
        low: '可见于病毒感染、某些药物影响、免疫性血小板减少症、肝硬化脾功能亢进、骨髓疾病等；采血不顺利时也可能出现假性降低。',
        advice: '轻度异常可遵医嘱复查。血小板明显降低并有皮肤瘀点瘀斑、牙龈或鼻子出血、黑便时，请尽快就医。',
      },
    ],
  },
  {
    name: '肝功能',
    items: [
      {
        id: 'alt',
        name: '丙氨酸氨基转移酶',
        abbr: 'ALT',
        unit: 'U/L',
        reference: '男 9–50；女 7–40',
        measures: '俗称“谷丙转氨酶”，主要存在于肝细胞中。肝细胞受损时会释放到血液里，是反映肝细胞损伤最常用的指标。',
        high: '常见于脂肪肝、病毒性肝炎、饮酒、药物或保健品引起的肝损伤；剧烈运动、熬夜后也可能暂时升高。',
        low: '偏低一般没有临床意义。',
        advice: '轻度升高可在避免饮酒、剧烈运动和熬夜后复查；明显或持续升高，请到消化内科或感染科就诊查找原因。不要自行服用“保肝药”。',
      },
      {
        id: 'ast',
        name: '天门冬氨酸氨基转移酶',
        abbr: 'AST',
        unit: 'U/L',
        reference: '男 15–40；女 13–35',
        measures: '俗称“谷草转氨酶”，存在于肝脏、心肌、骨骼肌等组织中，常与ALT一起反映肝细胞损伤。',
        high: '可见于各种肝病（尤其是酒精性肝病）、心肌损伤、肌肉损伤或剧烈运动后等。',
        low: '偏低一般没有临床意义。',
        advice: '请结合ALT等指标一起看。伴有胸痛、胸闷时需要排查心脏问题，请及时就医；持续升高请咨询医生。',
      },
      {
        id: 'ggt',
        name: 'γ-谷氨酰转移酶',
        abbr: 'GGT',
        unit: 'U/L',
        reference: '男 10–60；女 7–45',
        measures: '主要来自肝脏和胆道的一种酶，对胆道问题和饮酒比较敏感。',
        high: '常见于饮酒、脂肪肝、胆道梗阻或胆汁淤积、肝炎，以及某些药物影响。',
        low: '偏低一般没有临床意义。',
        advice: '有饮酒习惯的人应戒酒后复查。持续升高或伴有皮肤、眼睛发黄，请到消化内科就诊。',
      },
      {
        id: 'alp',
        name: '碱性磷酸酶',
        abbr: 'ALP',
        unit: 'U/L',
        reference: '男 45–125；女 35–100（50岁以上女性 50–135）',
        measures: '主要来自肝胆和骨骼的一种酶。',
        high: '可见于胆道梗阻、胆汁淤积等肝胆疾病，也可见于骨骼疾病；儿童青少年生长发育期和孕妇会生理性升高。',
        low: '偏低少见，一般意义不大。',
        advice: '需要结合GGT、胆红素等指标判断升高来自肝胆还是骨骼，持续升高请咨询医生。',
      },
      {
        id: 'tbil',
        name: '总胆红素',
        abbr: 'TBIL',
        unit: 'μmol/L',
        reference: '3.4–20.5',
        measures: '红细胞衰老破坏后产生的黄色物质，经肝脏处理后随胆汁排出。',
        high: '可见于肝炎等肝细胞损伤、胆道梗阻（如胆结石）、溶血；轻度升高而其他肝功能正常时，常见于吉尔伯特综合征等良性情况，空腹时间过长、熬夜后也可能偏高。',
        low: '偏低一般没有临床意义。',
        advice: '轻度升高可复查。出现皮肤或眼睛发黄、尿色像浓茶、大便颜色变浅时，请尽快就医。',
      },
      {
        id: 'dbil',
        name: '直接胆红素',
        abbr: 'DBIL',
        unit: 'μmol/L',
        reference: '0–6.8',
        measures: '经过肝脏处理后的胆红素，正常情况下随胆汁排入肠道。',
        high: '多见于肝细胞损伤、胆道梗阻或胆汁淤积（如胆结石，或胆道附近的肿物压迫）。',
        low: '偏低一般没有临床意义。',
        advice: '直接胆红素升高需要查明原因，医生可能会安排肝胆B超等检查，请到消化内科或肝胆外科就诊。',
      },
      {
        id: 'tp',
        name: '总蛋白',
        abbr: 'TP',
        unit: 'g/L',
        reference: '65–85',
        measures: '血液中白蛋白和球蛋白的总和，反映营养状况和肝脏合成蛋白的能力等。',
        high: '可见于脱水（血液浓缩）、慢性炎症，少数见于多发性骨髓瘤等。',
        low: '可见于营养不良、慢性肝病、肾病（蛋白从尿中丢失）、大量失血或大面积烧伤等。',
        advice: '请结合白蛋白和球蛋白一起看；持续异常请咨询医生。',
      },
      {
        id: 'alb',
        name: '白蛋白',
        abbr: 'ALB',
        unit: 'g/L',
        reference: '40–55（60岁以上 38–54）',
        measures: '肝脏合成的主要蛋白质，反映营养状况和肝脏合成功能，也帮助把水分留在血管里。',
        high: '偏高多因脱水，一般没有其他特殊意义。',
        low: '可见于营养不良、慢性肝病（如肝硬化）、肾病综合征、慢性消耗性疾病、炎症等；明显降低可引起水肿。',
        advice: '轻度偏低可注意均衡饮食，保证鱼、蛋、奶、瘦肉、豆制品等优质蛋白；明显偏低或伴有水肿，请就医查明原因。',
      },
    ],
  },
  {
    name: '肾功能',
    items: [
      {
        id: 'crea',
        name: '肌酐',
        abbr: 'Cr',
        unit: 'μmol/L',
        reference: '男 57–97；女 41–73',
        measures: '肌肉代谢产生的废物，主要经肾脏排出，是反映肾功能的常用指标。',
        high: '可见于各种原因引起的肾功能减退，也可见于脱水、剧烈运动或大量吃肉后；肌肉发达的人会略高。',
        low: '可见于肌肉量少（如老年人、消瘦、长期卧床）、怀孕等，一般意义不大。',
        advice: '肌酐升高时请到肾内科就诊，医生会结合估算肾小球滤过率（eGFR）、尿常规等判断肾功能。不要自行服用可能伤肾的止痛药或来源不明的草药。',
      },
      {
        id: 'urea',
        name: '尿素',
        abbr: 'UREA',
        unit: 'mmol/L',
        reference: '男 3.1–8.0；女 2.6–7.5',
        measures: '蛋白质代谢产生的废物，经肾脏排出。',
        high: '可见于肾功能减退、脱水、高蛋白饮食、消化道出血、发热等。',
        low: '可见于低蛋白饮食、严重肝病、怀孕等。',
        advice: '单独轻度升高常与饮食、饮水有关，可复查；与肌酐同时升高时，请到肾内科就诊。',
      },
      {
        id: 'ua',
        name: '尿酸',
        abbr: 'UA',
        unit: 'μmol/L',
        reference: '男 208–428；女 155–357',
        measures: '嘌呤代谢的产物，主要经肾脏排出。',
        high: '常见于高嘌呤饮食（动物内脏、海鲜、浓肉汤）、饮酒（尤其是啤酒）、常喝含糖饮料、肥胖、肾功能减退及某些药物（如利尿剂）影响。尿酸长期偏高可引起痛风和肾脏损害。',
        low: '偏低少见，一般没有临床意义。',
        advice: '非同日两次空腹血尿酸超过420 μmol/L可诊断为高尿酸血症。建议少吃高嘌呤食物、限酒、少喝含糖饮料、多喝水、控制体重；是否需要用药请咨询医生。关节突然红肿剧痛时请就医。',
      },
      {
        id: 'egfr',
        name: '估算肾小球滤过率',
        abbr: 'eGFR',
        unit: 'mL/min/1.73m²',
        reference: '≥90',
        measures: '根据血肌酐、年龄、性别计算出来的数值，估计肾脏每分钟能过滤多少血液，是评价肾功能的主要指标。',
        high: '高于参考值一般没有不良意义。',
        low: '提示肾功能可能下降：60–89为轻度下降（老年人可以是随年龄出现的变化）；低于60并持续3个月以上属于慢性肾脏病，需要规范随访。',
        advice: '低于90时请结合尿常规、尿微量白蛋白等咨询医生；低于60请到肾内科就诊。控制好血压和血糖，避免自行服用伤肾的药物。',
      },
    ],
  },
  {
    name: '血脂',
    items: [
      {
        id: 'tc',
        name: '总胆固醇',
        abbr: 'TC',
        unit: 'mmol/L',
        reference: '<5.2',
        measures: '血液中各种脂蛋白所含胆固醇的总和。',
        high: '≥5.2且<6.2为边缘升高，≥6.2为升高。常与饮食、缺乏运动、肥胖和遗传有关，也可见于甲状腺功能减退、肾病等。长期偏高会增加动脉粥样硬化和心脑血管病的风险。',
        low: '可见于营养不良、甲状腺功能亢进、严重肝病等。',
        advice: '请结合低密度脂蛋白胆固醇一起看。注意饮食、规律运动、控制体重、戒烟限酒；是否用药、控制到多少因人而异，请咨询医生。',
      },
      {
        id: 'tg',
        name: '甘油三酯',
        abbr: 'TG',
        unit: 'mmol/L',
        reference: '<1.7',
        measures: '血液中的一种脂肪，与饮食（尤其是甜食、精米白面和酒）关系密切。',
        high: '≥1.7且<2.3为边缘升高，≥2.3为升高。常见于饮食不当、饮酒、肥胖、糖尿病等；采血前没有空腹也会偏高。明显升高（≥5.6）会增加急性胰腺炎的风险。',
        low: '偏低一般没有临床意义。',
        advice: '请空腹8–12小时后复查。少吃甜食和油腻食物、限酒、规律运动、控制体重；明显升高请及时就医。',
      },
      {
        id: 'ldl',
        name: '低密度脂蛋白胆固醇',
        abbr: 'LDL-C',
        unit: 'mmol/L',
        reference: '<3.4',
        measures: '俗称“坏胆固醇”，容易沉积在血管壁上形成斑块，是防治动脉粥样硬化最主要的指标。',
        high: '≥3.4且<4.1为边缘升高，≥4.1为升高。已患冠心病、脑梗死、糖尿病等的人，医生定的控制目标更低，即使在参考范围内也可能需要治疗。',
        low: '一般对身体有利；正在服用降脂药的人，偏低常是治疗达标的表现。',
        advice: '化验单上的参考范围只适用于一般人群。有高血压、糖尿病、冠心病、脑卒中等的人，请让医生根据您的情况确定控制目标，不要自行停用降脂药。',
      },
      {
        id: 'hdl',
        name: '高密度脂蛋白胆固醇',
        abbr: 'HDL-C',
        unit: 'mmol/L',
        reference: '≥1.0',
        measures: '俗称“好胆固醇”，能把血管里多余的胆固醇运回肝脏处理。',
        high: '偏高一般是有利的。',
        low: '低于1.0为降低，常与吸烟、肥胖、缺乏运动、甘油三酯高、糖尿病有关，心脑血管病的风险会增加。',
        advice: '戒烟、规律的有氧运动和控制体重有助于提高高密度脂蛋白胆固醇。',
      },
    ],
  },
  {
    name: '血糖',
    items: [
      {
        id: 'glu',
        name: '空腹血糖',
        abbr: 'FPG',
        unit: 'mmol/L',
        reference: '3.9–6.1',
        measures: '至少8小时没有进食后血液中葡萄糖的浓度。',
        high: '≥6.1且<7.0为空腹血糖受损；≥7.0需要警惕糖尿病，医生一般会安排复查或糖耐量试验来确诊。感染、身体应激和某些药物（如激素）也会让血糖暂时升高。',
        low: '低于3.9为低血糖，可见于进食太少、运动过量、降糖药使用不当等，可出现心慌、出汗、手抖、头晕。',
        advice: '偏高请到内分泌科就诊明确诊断。出现低血糖症状时立即吃糖或喝含糖饮料，并告诉医生；反复低血糖请及时就医。',
      },
      {
        id: 'hba1c',
        name: '糖化血红蛋白',
        abbr: 'HbA1c',
        unit: '%',
        reference: '4.0–6.0',
        measures: '反映近2–3个月的平均血糖水平，不受当天是否空腹的影响。',
        high: '≥6.5%可作为诊断糖尿病的依据之一（需要医生结合其他检查判断）；糖尿病患者的控制目标一般在7%以下，具体因人而异。',
        low: '可见于贫血、近期失血或输血、反复低血糖等。',
        advice: '已确诊糖尿病的人一般每3–6个月查一次，请遵医嘱调整治疗，不要自行增减降糖药。',
      },
      {
        id: 'pg2h',
        name: '餐后2小时血糖',
        abbr: '2hPG',
        unit: 'mmol/L',
        reference: '<7.8',
        measures: '从吃第一口饭（或喝葡萄糖水）开始计时，2小时后的血糖，反映身体处理进食后血糖的能力。',
        high: '≥7.8且<11.1为糖耐量减低；≥11.1需要警惕糖尿病，需要医生结合复查确诊。',
        low: '过低可见于降糖药使用不当、胃切除术后等，可出现心慌、出汗、手抖。',
        advice: '偏高请到内分泌科就诊。控制每餐的总量、少吃精米白面和甜食、饭后适当活动，有助于控制餐后血糖。',
      },
    ],
  },
  {
    name: '尿常规',
    items: [
      urine({
        id: 'upro',
        name: '尿蛋白',
        abbr: 'PRO',
        measures: '检查尿液中有没有蛋白质。正常的肾脏只会让极少量蛋白漏到尿里，常规方法测不出来。',
        high: '阳性可见于肾炎、糖尿病或高血压引起的肾损害等；剧烈运动、发热、长时间站立后也可出现一过性阳性。',
        advice: '一次阳性不一定是肾病，可复查；持续阳性，或伴有水肿、尿中泡沫多、血压高时，请到肾内科就诊。',
      }),
      urine({
        id: 'uglu',
        name: '尿葡萄糖',
        abbr: 'GLU',
        measures: '检查尿液中有没有葡萄糖。血糖正常时，肾脏会把葡萄糖几乎全部回收，尿里测不出来。',
        high: '多见于血糖过高（如糖尿病）；也可见于怀孕、肾小管功能异常，以及服用某些降糖药（如达格列净、恩格列净等）后。',
        advice: '尿糖阳性请查空腹血糖和糖化血红蛋白，到内分泌科就诊；正在服用上述降糖药的人，尿糖阳性是药物本身的作用，请遵医嘱。',
      }),
      urine({
        id: 'ubld',
        name: '尿潜血',
        abbr: 'BLD',
        measures: '检查尿液中有没有血红蛋白（红细胞），肉眼看不出红色时也能查出来。',
        high: '可见于泌尿系统感染、结石、肾炎和泌尿系统肿瘤等；女性月经期前后、剧烈运动后也可出现阳性。',
        advice: '避开月经期复查，并结合尿沉渣红细胞计数判断。持续阳性、肉眼看到血尿或伴有腰痛，请到泌尿外科或肾内科就诊；40岁以上不明原因的血尿更应重视。',
      }),
      urine({
        id: 'uleu',
        name: '尿白细胞',
        abbr: 'LEU',
        measures: '检查尿液中的白细胞，反映泌尿系统有没有炎症。',
        high: '多见于尿路感染（如膀胱炎、肾盂肾炎）；女性留尿时混入白带也可出现阳性。',
        advice: '留取清洁中段尿复查。伴有尿频、尿急、尿痛或发热、腰痛时请就医，不要自行长期服用抗生素。',
      }),
      urine({
        id: 'uket',
        name: '尿酮体',
        abbr: 'KET',
        measures: '酮体是身体分解脂肪供能时的产物，检查尿中酮体可以了解身体是否在大量分解脂肪。',
        high: '可见于长时间饥饿、节食、剧烈呕吐、孕吐；糖尿病患者尿酮体阳性需要警惕糖尿病酮症酸中毒。',
        advice: '糖尿病患者尿酮体阳性，尤其伴有口渴、尿多、恶心呕吐、呼吸有烂苹果味时，请立即就医。其他情况注意规律进食后复查。',
      }),
      {
        id: 'usg',
        name: '尿比重',
        abbr: 'SG',
        unit: '',
        reference: '1.003–1.030',
        measures: '反映尿液的浓缩程度，与喝水多少和肾脏的浓缩功能有关。',
        high: '多见于喝水少、出汗多、呕吐腹泻等脱水情况，也可见于尿中糖或蛋白增多时。',
        low: '多见于喝水多；持续偏低可见于肾脏浓缩功能减退、尿崩症等。',
        advice: '单次异常多与饮水有关，可调整饮水后复查；持续异常请咨询医生。',
      },
    ],
  },
  {
    name: '甲状腺功能',
    items: [
      {
        id: 'tsh',
        name: '促甲状腺激素',
        abbr: 'TSH',
        unit: 'mIU/L',
        reference: '0.27–4.20',
        measures: '脑垂体分泌的激素，负责“指挥”甲状腺工作，是筛查甲状腺功能最敏感的指标。',
        high: '多提示甲状腺功能减退（包括亚临床甲减），常见于桥本甲状腺炎、甲状腺手术或碘-131治疗后等。',
        low: '多提示甲状腺功能亢进（包括亚临床甲亢），也可见于甲状腺激素药物用量过大等。',
        advice: '请结合FT3、FT4一起看，到内分泌科就诊。正在服用甲状腺激素或抗甲状腺药的人，请按医生要求复查、调整剂量，不要自行停药。备孕和怀孕的女性对TSH有特别的要求，请告诉医生。',
      },
      {
        id: 'ft4',
        name: '游离甲状腺素',
        abbr: 'FT4',
        unit: 'pmol/L',
        reference: '12.0–22.0',
        measures: '甲状腺分泌的主要激素中，能直接发挥作用的那一部分。',
        high: '多见于甲状腺功能亢进、甲状腺炎早期，或甲状腺激素药物用量过大。',
        low: '多见于甲状腺功能减退，也可见于垂体功能减退等。',
        advice: '请结合TSH判断，到内分泌科就诊。',
      },
      {
        id: 'ft3',
        name: '游离三碘甲状腺原氨酸',
        abbr: 'FT3',
        unit: 'pmol/L',
        reference: '3.1–6.8',
        measures: '甲状腺激素中作用最强的部分，调节身体的代谢。',
        high: '多见于甲状腺功能亢进。',
        low: '可见于甲状腺功能减退，也可见于严重疾病、长期节食等（不一定是甲状腺本身的问题）。',
        advice: '请结合TSH、FT4判断，到内分泌科就诊。',
      },
    ],
  },
  {
    name: '电解质',
    items: [
      {
        id: 'k',
        name: '钾',
        abbr: 'K',
        unit: 'mmol/L',
        reference: '3.5–5.3',
        measures: '维持心脏、肌肉和神经正常工作的重要电解质。',
        high: '可见于肾功能减退、某些降压药或保钾利尿药的影响、组织损伤；采血时溶血也会造成假性升高。明显升高可引起心律失常。',
        low: '可见于呕吐、腹泻、进食少、使用利尿剂等，可出现乏力、肌肉无力、心慌。',
        advice: '血钾异常可能影响心脏。明显偏离参考范围，或伴有心慌、乏力时，请尽快就医；轻度异常请遵医嘱复查。',
      },
      {
        id: 'na',
        name: '钠',
        abbr: 'Na',
        unit: 'mmol/L',
        reference: '137–147',
        measures: '维持体内水分平衡和血压的主要电解质。',
        high: '多见于喝水不足、大量出汗、腹泻等脱水情况。',
        low: '可见于呕吐、腹泻、使用利尿剂、喝水过多、心衰、肝硬化等；老年人低钠可出现乏力、嗜睡、反应变慢。',
        advice: '轻度异常请遵医嘱复查；伴有意识改变、抽搐等，请立即就医。',
      },
      {
        id: 'cl',
        name: '氯',
        abbr: 'Cl',
        unit: 'mmol/L',
        reference: '99–110',
        measures: '与钠一起维持体内水分和酸碱平衡。',
        high: '可见于脱水、某些肾小管疾病、大量输注生理盐水后等。',
        low: '可见于严重呕吐、使用利尿剂等。',
        advice: '一般需要与钠、钾等一起判断，请咨询医生。',
      },
      {
        id: 'ca',
        name: '钙',
        abbr: 'Ca',
        unit: 'mmol/L',
        reference: '2.11–2.52',
        measures: '血液中的总钙，与骨骼健康、肌肉收缩和神经功能有关。',
        high: '可见于甲状旁腺功能亢进、过量补充钙剂或维生素D、某些肿瘤等。',
        low: '可见于维生素D缺乏、甲状旁腺功能减退、慢性肾病，白蛋白偏低时也会偏低（需要校正），可出现手脚麻木、抽筋。',
        advice: '血钙需要结合白蛋白判断；明显异常请到内分泌科就诊。不要自行大量补钙或补充维生素D。',
      },
    ],
  },
]

const ITEMS = new Map<string, { category: string; item: ItemText }>(
  CATEGORIES.flatMap((c) => c.items.map((d) => [d.id, { category: c.name, item: { ...d, qualitative: d.qualitative ?? false } }] as const)),
)

const summary = ({ id, name, abbr, unit, reference, qualitative }: ItemText): CheckItem => ({ id, name, abbr, unit, reference, qualitative })

/** Every item, by category, with its reference range. */
export function checkItemList(): CheckCategory[] {
  return CATEGORIES.map((c) => ({ name: c.name, items: c.items.map((d) => summary(ITEMS.get(d.id)!.item)) }))
}

/** One item explained, or null for an id the list does not have. */
export function checkItemContent(id: string): CheckItemContent | null {
  const found = ITEMS.get(id)
  if (!found) return null
  const { item, category } = found
  return { ...summary(item), category, measures: item.measures, high: item.high, low: item.low, advice: item.advice, note: REFERENCE_NOTE, disclaimer: HEALTH_TOOL_DISCLAIMER }
}
