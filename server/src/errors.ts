/** Envelope codes (spec §8). Business errors travel with HTTP 200 so the app reads the envelope, as the spec's client does. */
export const Code = {
  OK: 200,
  BAD_INPUT: 400,
  UNAUTHENTICATED: 401,
  NOT_BOUND: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY: 429,
  SERVER: 500,
  /** No permission: someone else's id, or a staff-only call (spec §6). */
  FORBIDDEN: 2999,
} as const

export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export const badInput = (msg: string) => new AppError(Code.BAD_INPUT, msg)
export const unauthenticated = (msg = '登录已失效，请重新登录') => new AppError(Code.UNAUTHENTICATED, msg)
export const notBound = () => new AppError(Code.NOT_BOUND, '请先绑定手机号')
/** Reveals nothing about whether the thing exists (spec §6 / issue: another user's id answers 2999). */
export const forbidden = () => new AppError(Code.FORBIDDEN, '暂无权限')
export const notFound = (what: string) => new AppError(Code.NOT_FOUND, `${what}不存在`)
export const conflict = (msg: string) => new AppError(Code.CONFLICT, msg)
/** Too much waits for the database already: answered at once rather than after a silent wait (db/index.ts). */
export const BUSY = '当前使用人数较多，请稍后再试'
export const busy = () => new AppError(Code.TOO_MANY, BUSY)
