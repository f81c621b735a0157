import NucleicOrders from '@/components/Nucleic/NucleicOrders'
import { nucleicUrls } from '@/pageUrls'

/** The hospital's own 核酸订单 (spec §2 customer-specific /orderList). */
export default function CustomNucleicOrderList() {
  return <NucleicOrders urls={nucleicUrls('/custom/10392/nucleic')} />
}
