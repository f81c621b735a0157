import { averageReplyTime, timeAgo } from '../../src/utils/time';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('timeAgo (spec §9)', () => {
  const now = new Date(2024, 5, 30, 12, 0, 0).getTime();

  it('shows 刚刚 under 5 minutes', () => {
    expect(timeAgo(now, now)).toBe('刚刚');
    expect(timeAgo(now - 5 * MINUTE + 1, now)).toBe('刚刚');
  });

  it('switches to minutes at exactly 5 minutes', () => {
    expect(timeAgo(now - 5 * MINUTE, now)).toBe('5分钟前');
    expect(timeAgo(now - 59 * MINUTE - 59 * 1000, now)).toBe('59分钟前');
  });

  it('shows hours, then days', () => {
    expect(timeAgo(now - HOUR, now)).toBe('1小时前');
    expect(timeAgo(now - DAY + 1, now)).toBe('23小时前');
    expect(timeAgo(now - DAY, now)).toBe('1天前');
  });

  it('shows days up to exactly 30 days, then the date', () => {
    expect(timeAgo(now - 30 * DAY, now)).toBe('30天前');
    const ts = new Date(2024, 4, 1, 12, 0, 0);
    expect(timeAgo(ts, ts.getTime() + 30 * DAY)).toBe('30天前');
    expect(timeAgo(ts, ts.getTime() + 30 * DAY + 1)).toBe('2024-05-01');
    expect(timeAgo(new Date(2023, 0, 9, 8, 0), now)).toBe('2023-01-09');
  });

  it('accepts a Date and treats future times as 刚刚', () => {
    expect(timeAgo(new Date(now - 2 * HOUR), now)).toBe('2小时前');
    expect(timeAgo(now + HOUR, now)).toBe('刚刚');
  });

  it('returns empty text for an invalid time', () => {
    expect(timeAgo(Number.NaN, now)).toBe('');
    expect(timeAgo(new Date('invalid'), now)).toBe('');
  });

  it('defaults now to Date.now()', () => {
    expect(timeAgo(Date.now())).toBe('刚刚');
  });
});

describe('averageReplyTime (spec §9)', () => {
  it('shows 6小时 for none or 0', () => {
    expect(averageReplyTime(0)).toBe('6小时');
    expect(averageReplyTime(null)).toBe('6小时');
    expect(averageReplyTime(undefined)).toBe('6小时');
    expect(averageReplyTime(-5)).toBe('6小时');
  });

  it('shows seconds under a minute', () => {
    expect(averageReplyTime(1)).toBe('1秒');
    expect(averageReplyTime(59)).toBe('59秒');
  });

  it('shows minutes under an hour, rounded down', () => {
    expect(averageReplyTime(60)).toBe('1分钟');
    expect(averageReplyTime(3599)).toBe('59分钟');
  });

  it('shows hours under a day, rounded down', () => {
    expect(averageReplyTime(3600)).toBe('1小时');
    expect(averageReplyTime(86399)).toBe('23小时');
  });

  it('shows days from one day on', () => {
    expect(averageReplyTime(86400)).toBe('1天');
    expect(averageReplyTime(3 * 86400 + 5)).toBe('3天');
  });
});
