/**
 * Checks of the patient and escort forms before anything is sent (spec §5): each answers the Chinese message to
 * toast, or null when the value is fine. The server checks again and its message is shown when it refuses.
 */
import { isValidIdCard } from './idCard'
import { isMobile, isPhoneCode } from './phoneCode'
import { textLength } from './text'

/** A name as printed on the identity card: at most 20 Chinese characters, i.e. display length 40 (spec §5). */
export const NAME_MAX_LENGTH = 40

export function nameProblem(name: string, who = '就诊人'): string | null {
  if (!name.trim()) return `请输入${who}姓名`
  if (textLength(name.trim()) > NAME_MAX_LENGTH) return `${who}姓名不能超过${NAME_MAX_LENGTH / 2}个字`
  return null
}

/** 15 or 18 characters with a real birth date and, for 18, the right check character (spec §3, §5). */
export function idCardProblem(idCard: string, who = ''): string | null {
  if (!idCard.trim()) return `请输入${who}身份证号`
  if (!isValidIdCard(idCard.trim().toUpperCase())) return `${who}身份证号码不正确`
  return null
}

export const mobileProblem = (mobile: string): string | null => (isMobile(mobile) ? null : '请输入正确的手机号')
export const codeProblem = (code: string): string | null => (isPhoneCode(code) ? null : '请输入6位验证码')

/** The first problem of a form, in the order its fields are shown. */
export const firstProblem = (...problems: (string | null)[]): string | null => problems.find((p) => p !== null) ?? null
