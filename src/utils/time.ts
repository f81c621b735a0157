/** Relative-time and reply-time texts (spec §9). */

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Local calendar date as YYYY-MM-DD. */
function formatDate(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/**
 * Time-ago text (spec §9), `ts` and `now` in milliseconds: under 5 minutes '刚刚'
 * (also for future times), then 'N分钟前', 'N小时前', 'N天前' up to and including
 * 30 days; older than 30 days the local date 'YYYY-MM-DD'. Invalid input gives ''.
 */
export function timeAgo(ts: number | Date, now: number = Date.now()): string {
  const t = ts instanceof Date ? ts.getTime() : ts;
  if (typeof t !== 'number' || !Number.isFinite(t) || !Number.isFinite(now)) return '';
  const diff = now - t;
  if (diff < 5 * MINUTE) return '刚刚';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}分钟前`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}小时前`;
  if (diff <= 30 * DAY) return `${Math.floor(diff / DAY)}天前`;
  return formatDate(new Date(t));
}

/**
 * Doctor's average reply time (spec §9), from seconds, rounded down: none or 0 shows
 * '6小时'; under 60 s 'N秒'; under 1 hour 'N分钟'; under 1 day 'N小时'; else 'N天'.
 * Negative or non-numeric values are treated as none.
 */
export function averageReplyTime(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return '6小时';
  if (seconds < 60) return `${Math.floor(seconds)}秒`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}分钟`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}小时`;
  return `${Math.floor(seconds / 86400)}天`;
}
