import type { Db } from '../db'
import { dictItems } from '../db/schema'

/**
 * 民族 (type `nation`): the 56 ethnic groups of China with their codes of GB/T 3304-1991 (01 汉族 … 56 基诺族), in
 * the standard's order; 97 其他 and 98 外国血统中国籍人士 complete it as the standard does.
 */
const NATIONS = [
  '汉族', '蒙古族', '回族', '藏族', '维吾尔族', '苗族', '彝族', '壮族', '布依族', '朝鲜族',
  '满族', '侗族', '瑶族', '白族', '土家族', '哈尼族', '哈萨克族', '傣族', '黎族', '傈僳族',
  '佤族', '畲族', '高山族', '拉祜族', '水族', '东乡族', '纳西族', '景颇族', '柯尔克孜族', '土族',
  '达斡尔族', '仫佬族', '羌族', '布朗族', '撒拉族', '毛南族', '仡佬族', '锡伯族', '阿昌族', '普米族',
  '塔吉克族', '怒族', '乌孜别克族', '俄罗斯族', '鄂温克族', '德昂族', '保安族', '裕固族', '京族', '塔塔尔族',
  '独龙族', '鄂伦春族', '赫哲族', '门巴族', '珞巴族', '基诺族',
]

const ENTRIES = [
  ...NATIONS.map((label, i) => ({ type: 'nation', label, value: String(i + 1).padStart(2, '0'), sort: i })),
  { type: 'nation', label: '其他', value: '97', sort: NATIONS.length },
  { type: 'nation', label: '外国血统中国籍人士', value: '98', sort: NATIONS.length + 1 },
]

/**
 * The system dictionaries (POST /dld-palm/admin/system/dict) beyond those of the first seed: added to any database,
 * also one seeded before them; an entry a hospital has already (same type and value) is left as it is.
 */
export async function seedDictionaries(db: Db) {
  await db.insert(dictItems).values(ENTRIES).onConflictDoNothing({ target: [dictItems.type, dictItems.value] })
}
