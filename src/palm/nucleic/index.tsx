import NucleicHome from '@/components/Nucleic/NucleicHome'
import { NUCLEIC_URLS } from '@/pageUrls'

/** 核酸检测 (spec §2 /palm/nucleic/index). */
export default function NucleicIndex() {
  return <NucleicHome urls={NUCLEIC_URLS} />
}
