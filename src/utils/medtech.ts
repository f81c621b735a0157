/** Rules of the examination and nucleic-test pages (no Taro import: the unit tests and the server may use them). */

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六']

/** 周一 … 周日 of a YYYY-MM-DD date (the calendar day itself, whatever the device's time zone). */
export function weekdayText(date: string): string {
  const d = new Date(`${date}T00:00:00Z`)
  return Number.isNaN(d.getTime()) ? '' : WEEKDAYS[d.getUTCDay()]!
}

/** A nucleic result said in words, never by colour alone: 阴性（未检出） / 阳性（检出）/ 等待报告. */
export function nucleicResultText(result: '阴性' | '阳性' | null): string {
  if (result === '阴性') return '阴性（未检出新冠病毒核酸）'
  if (result === '阳性') return '阳性（检出新冠病毒核酸，请按医院通知复检并做好防护）'
  return '等待报告'
}
