import NucleicOrders from '@/components/Nucleic/NucleicOrders'
import { NUCLEIC_URLS } from '@/pageUrls'

/** 我的核酸订单 (spec §2 /palm/nucleic/orderList). */
export default function NucleicOrderList() {
  return <NucleicOrders urls={NUCLEIC_URLS} />
}
