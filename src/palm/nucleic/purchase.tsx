import NucleicPurchase from '@/components/Nucleic/NucleicPurchase'
import { NUCLEIC_URLS } from '@/pageUrls'

/** 核酸检测开单 (spec §2 /palm/nucleic/purchase). */
export default function NucleicPurchasePage() {
  return <NucleicPurchase urls={NUCLEIC_URLS} />
}
