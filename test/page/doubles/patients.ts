import type { Patient } from '../../../types/api/patient'

/** A complete, masked patient as `/dld-palm/api/patient/list` answers it; patient 1 is the default. */
export const patient = (id: number, name: string, relation: string): Patient => ({
  id,
  name,
  idCard: '110101********4514',
  mobile: '138****5678',
  sex: 1,
  sexText: '男',
  birthday: '1990-03-07',
  age: 36,
  relation,
  source: 'idCard',
  neonate: false,
  isDefault: id === 1,
  hisMedCardNo: 'A100001',
  complete: true,
  missing: [],
})
