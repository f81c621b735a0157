import NucleicResults from '@/components/Nucleic/NucleicResults'

/** 核酸检测结果 (spec §2 /palm/nucleic/result). */
export default function NucleicResult() {
  return <NucleicResults title='核酸检测结果' />
}
