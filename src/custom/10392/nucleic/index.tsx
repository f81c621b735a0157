import NucleicHome from '@/components/Nucleic/NucleicHome'
import { nucleicUrls } from '@/pageUrls'

/** The hospital's own 核酸检测 (spec §2 customer-specific /nucleic/index), on the same flow as the palm pages. */
export default function CustomNucleicIndex() {
  return <NucleicHome urls={nucleicUrls('/custom/10392/nucleic')} />
}
