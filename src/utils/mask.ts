/**
 * Masking of sensitive values for display (spec §9: id number first 6 and last 4,
 * name masked, mobile first 3 and last 4). All helpers accept null/undefined, trim
 * surrounding whitespace, work by code point and never throw.
 */

const toChars = (s: string | null | undefined): string[] =>
  typeof s === 'string' ? Array.from(s.trim()) : [];

/**
 * Keeps `head` leading and `tail` trailing characters and stars the rest, provided at
 * least `minMasked` characters end up starred. Shorter values reveal fewer characters
 * (split between both ends), and values of `minMasked` characters or fewer become all stars.
 */
function maskMiddle(chars: string[], head: number, tail: number, minMasked: number): string {
  const len = chars.length;
  if (len === 0) return '';
  let h = head;
  let t = tail;
  if (len - h - t < minMasked) {
    const visible = len - minMasked;
    if (visible <= 0) return '*'.repeat(len);
    t = Math.min(tail, Math.ceil(visible / 2));
    h = Math.min(head, visible - t);
  }
  return chars.slice(0, h).join('') + '*'.repeat(len - h - t) + chars.slice(len - t).join('');
}

/**
 * Identity number: first 6 and last 4 kept, stars between, same length (spec §9).
 * '110101199003074514' → '110101********4514'. Values too short to keep at least
 * 4 characters hidden reveal less; 4 characters or fewer are fully starred.
 */
export function maskIdCard(id: string | null | undefined): string {
  return maskMiddle(toChars(id), 6, 4, 4);
}

/**
 * Person name (spec §9): 1 character as is; 2 characters first + '*';
 * 3 or more first + stars + last. '张三' → '张*', '欧阳娜娜' → '欧**娜'.
 */
export function maskName(name: string | null | undefined): string {
  const chars = toChars(name);
  const len = chars.length;
  if (len <= 1) return chars.join('');
  if (len === 2) return `${chars[0]}*`;
  return chars[0] + '*'.repeat(len - 2) + chars[len - 1];
}

/**
 * Mobile number: first 3 and last 4 kept (spec §9); an 11-digit number gets 4 stars
 * in the middle ('13812345678' → '138****5678'). Shorter values keep at least 4
 * characters hidden; 4 characters or fewer are fully starred.
 */
export function maskMobile(mobile: string | null | undefined): string {
  return maskMiddle(toChars(mobile), 3, 4, 4);
}

/**
 * A hospital card number (就诊卡号) is shown like an identity number, first 6 and last 4, wherever it is listed (the
 * patient list, 确认挂号, a registration); only the electronic health card shows it whole, with the QR code the
 * hospital's scanner reads.
 */
export function maskCardNo(cardNo: string | null | undefined): string {
  return maskIdCard(cardNo);
}
