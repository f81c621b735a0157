/** The IM profile nickname that carries the patient's nick, sex, age and order type (spec §3). */

/** Between the packed fields; unlikely in a name, and stripped from every field when packing. */
export const NICKNAME_DELIMITER = '|&|'

export interface NicknameParts {
  nick: string
  sex: string
  age: string
  orderType: string
}

const clean = (field: string) => field.split(NICKNAME_DELIMITER).join('')

/**
 * Packs nick, sex, age and orderType into one IM nickname (spec §3), in that order. The delimiter is removed
 * from each field first, so a nick that contains it cannot shift the other fields.
 */
export function packNickname(parts: NicknameParts): string {
  return [parts.nick, parts.sex, parts.age, parts.orderType].map(clean).join(NICKNAME_DELIMITER)
}

/**
 * Reads a nickname packed by `packNickname` (spec §3). A plain nickname (no delimiter, or not four fields) is all
 * nick; if more than four fields arrive (a packer that did not strip the delimiter), the extra ones belong to the nick.
 */
export function unpackNickname(nickname: string): NicknameParts {
  const fields = nickname.split(NICKNAME_DELIMITER)
  if (fields.length < 4) return { nick: nickname, sex: '', age: '', orderType: '' }
  const [sex, age, orderType] = fields.slice(-3)
  return { nick: fields.slice(0, -3).join(NICKNAME_DELIMITER), sex, age, orderType }
}
