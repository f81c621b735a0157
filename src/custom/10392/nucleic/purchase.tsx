import NucleicPurchase from '@/components/Nucleic/NucleicPurchase'
import { nucleicUrls } from '@/pageUrls'

/** The hospital's own 核酸自助登记 (spec §2 customer-specific /purchase, self registration). */
export default function CustomNucleicPurchase() {
  return <NucleicPurchase urls={nucleicUrls('/custom/10392/nucleic')} />
}
