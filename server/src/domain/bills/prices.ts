/** The price catalogue of the price-disclosure page (价格公示, /palm/priceDisclosure/index), as the HIS keeps it. */
import type { BillCategory, PriceItemPage } from '../../../../types/api/palm'
import type { Db } from '../../db'
import type { HisProvider } from '../../plugins/providers/his'
import { requireHospitalByCode } from '../hospital'
import { MAX_PAGE_SIZE } from './his'

/** GET /price/list: the hospital's items whose name or code holds the keyword, in the hospital's order. */
export async function listPrices(
  db: Db,
  his: HisProvider,
  query: { hospitalCode: string; keyword?: string; category?: BillCategory; page: number; size: number },
): Promise<PriceItemPage> {
  const hospital = await requireHospitalByCode(db, query.hospitalCode)
  const size = Math.min(query.size, MAX_PAGE_SIZE)
  const { records, total } = await his.prices({ hospitalCode: hospital.code, keyword: query.keyword, category: query.category, page: query.page, size })
  return { records, total, page: query.page, size }
}
