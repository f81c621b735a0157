/**
 * How the 医院设置 page names and checks the settings it knows (hospital_configs keys the server reads). The server
 * falls back to its default on a value it cannot read, silently, so the page says what a value must look like before
 * it is saved. A key the page does not know is shown by its key and saved as typed.
 */
export interface SettingKind {
  label: string
  hint: string
  /** On / off settings are a switch ('true' / 'false'). */
  boolean?: boolean
  /** Why a typed value would not be read, or null. */
  problem?: (value: string) => string | null
}

/** As server/src/domain/register/rules.ts reads them: holdMinutesOf, cancelDeadlineTime, register.freeForElderly. */
export const SETTING_KINDS: Record<string, SettingKind> = {
  'register.holdMinutes': {
    label: '挂号待支付保留时长',
    hint: '单位分钟，1至120的整数；超时未支付的号源自动释放',
    problem: (v) => (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 120 ? null : '请输入1至120的整数'),
  },
  'register.cancelDeadline': {
    label: '退号截止时间',
    hint: '就诊前一日的这个时间之后不可取消，格式 HH:mm，如 17:00',
    problem: (v) => (/^([01]\d|2[0-3]):[0-5]\d$/.test(v) ? null : '请按 HH:mm 填写，如 17:00'),
  },
  'register.freeForElderly': { label: '老年人普通号免挂号费', hint: '开启后，老年就诊人预约普通号免挂号费', boolean: true },
  'private.hisEndpoint': { label: 'HIS 接口地址', hint: '医院内部系统的地址，不对患者公开' },
}

export const kindOf = (key: string): SettingKind => SETTING_KINDS[key] ?? { label: key, hint: '' }

/** The longest value the server keeps. */
export const SETTING_VALUE_MAX = 4000
