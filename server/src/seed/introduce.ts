import { sql } from 'drizzle-orm'
import type { Db } from '../db'
import { hospitals } from '../db/schema'

/**
 * The demo hospitals' introduction (医院介绍) and guide (就医指南): rich text in textConfig under keys ending in Html,
 * sanitised when served (domain/richText.ts). The script in the guide's last line is there on purpose: it shows that a
 * hospital's HTML is cleaned before it reaches a phone, and it never does.
 */
export const introductionTexts = (name: string): Record<string, string> => ({
  introduceHtml:
    `<h2>${name}</h2>` +
    `<p>${name}始建于1952年，是集医疗、教学、科研、预防保健为一体的综合性医院，开放床位1200张，设临床科室36个、医技科室12个。</p>` +
    '<p>医院拥有心血管内科、消化内科、骨科、妇产科等省级重点专科，配备3.0T磁共振、256排CT、数字减影血管造影机等设备。</p>' +
    '<ul><li>门诊时间：周一至周日 8:00-17:00</li><li>急诊：24小时开放</li><li>住院部：门诊楼北侧 2 号楼</li></ul>',
  guideHtml:
    '<h3>就诊流程</h3>' +
    '<ol><li>线上预约挂号，按预约时段提前15分钟到院</li><li>在自助机或分诊台签到候诊</li><li>医生开具检查或处方后，在线缴费</li><li>凭缴费后的指引到检查科室或药房</li></ol>' +
    '<h3>交通指南</h3><p>地铁1号线中山路站B出口步行200米；公交12路、35路医院站下车。</p>' +
    '<h3>温馨提示</h3><p>就诊请携带身份证或医保卡；部分检查需空腹，请留意检查须知。</p>' +
    '<p onclick="alert(1)">如有疑问请咨询门诊服务台。<script>alert("guide")</script></p>',
})

/** Adds the introduction and guide to a demo hospital that has none yet (a database seeded before they existed). */
export async function seedIntroductions(db: Db) {
  const rows = await db.select({ id: hospitals.id, name: hospitals.name, texts: hospitals.textConfig }).from(hospitals)
  for (const h of rows) {
    if (h.texts.introduceHtml !== undefined) continue
    await db
      .update(hospitals)
      .set({ textConfig: sql`${hospitals.textConfig} || ${JSON.stringify(introductionTexts(h.name))}::jsonb` })
      .where(sql`${hospitals.id} = ${h.id} and not (${hospitals.textConfig} ? 'introduceHtml')`)
  }
}
