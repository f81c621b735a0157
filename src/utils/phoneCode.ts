/** Phone verification code input and resend countdown (spec §5, §9). */
import { maskMobile } from './mask';

/** Digits in an SMS verification code (spec §5, §9). */
export const PHONE_CODE_LENGTH = 6;
/** Seconds before a code can be requested again (spec §9). */
export const COUNTDOWN_SECONDS = 60;

const PHONE_CODE_RE = new RegExp(`^\\d{${PHONE_CODE_LENGTH}}$`);
const MOBILE_RE = /^1[3-9]\d{9}$/;

/** True for exactly 6 ASCII digits (spec §5). */
export function isPhoneCode(s: string | null | undefined): boolean {
  return typeof s === 'string' && PHONE_CODE_RE.test(s);
}

/** True for a mainland mobile number: 11 digits starting 13-19. */
export function isMobile(s: string | null | undefined): boolean {
  return typeof s === 'string' && MOBILE_RE.test(s);
}

/**
 * Whether a typed mobile is the account's own, as the app knows it (masked: first 3 and last 4). The account's mobile
 * was verified when it was bound, so a patient with it needs no second code; the server makes sure it is really the
 * account's (a different number with the same mask still needs its code).
 */
export function isAccountMobile(typed: string, accountMasked: string | null | undefined): boolean {
  return isMobile(typed) && !!accountMasked && maskMobile(typed) === accountMasked;
}

/**
 * Button text of the code countdown (spec §9): not started '获取验证码';
 * counting (remaining > 0) '{n}秒后重新获取'; finished '重新获取'.
 */
export function countdownText(remaining: number, started: boolean): string {
  if (!started) return '获取验证码';
  if (Number.isFinite(remaining) && remaining > 0) return `${Math.ceil(remaining)}秒后重新获取`;
  return '重新获取';
}
