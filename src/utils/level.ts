/** Chat level icons and doctor service-level stars (spec §3). */

export type ChatLevelKind = 'heart' | 'blueDiamond' | 'goldDiamond' | 'crown' | 'medal';

export interface ChatLevelIcon {
  kind: ChatLevelKind;
  /** How many icons to show. */
  count: number;
}

/**
 * Chat level icon (spec §3): 0-5 hearts (count = level), 6-10 blue diamonds,
 * 11-15 gold diamonds, 16-20 crowns (count = level - band start + 1, i.e. 1-5),
 * 21 and above a single medal. Fractions are rounded down; negative or invalid
 * levels count as 0.
 */
export function chatLevelIcon(level: number): ChatLevelIcon {
  const l = Number.isFinite(level) && level > 0 ? Math.floor(level) : 0;
  if (l <= 5) return { kind: 'heart', count: l };
  if (l <= 10) return { kind: 'blueDiamond', count: l - 5 };
  if (l <= 15) return { kind: 'goldDiamond', count: l - 10 };
  if (l <= 20) return { kind: 'crown', count: l - 15 };
  return { kind: 'medal', count: 1 };
}

export interface StarRating {
  full: number;
  half: boolean;
  empty: number;
}

/**
 * Star rating for a doctor service level (spec §3): the level is clamped to 0..max,
 * whole units are full stars, a fraction of 0.5 or more adds a half star, and the rest
 * are empty; full + (half ? 1 : 0) + empty === max.
 */
export function starRating(level: number, max = 5): StarRating {
  const m = Number.isFinite(max) && max > 0 ? Math.floor(max) : 0;
  const v = Number.isFinite(level) ? Math.min(Math.max(level, 0), m) : 0;
  const full = Math.floor(v);
  const half = full < m && v - full >= 0.5;
  return { full, half, empty: m - full - (half ? 1 : 0) };
}
