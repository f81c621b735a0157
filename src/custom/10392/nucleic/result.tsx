import NucleicResults from '@/components/Nucleic/NucleicResults'

/** The hospital's own 核酸检测结果 (spec §2 customer-specific /result). */
export default function CustomNucleicResult() {
  return <NucleicResults title='核酸检测结果' />
}
