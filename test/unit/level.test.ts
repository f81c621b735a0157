import { chatLevelIcon, starRating } from '../../src/utils/level';

describe('chatLevelIcon (spec §3)', () => {
  it.each([
    [0, 'heart', 0],
    [1, 'heart', 1],
    [5, 'heart', 5],
    [6, 'blueDiamond', 1],
    [10, 'blueDiamond', 5],
    [11, 'goldDiamond', 1],
    [15, 'goldDiamond', 5],
    [16, 'crown', 1],
    [20, 'crown', 5],
    [21, 'medal', 1],
    [99, 'medal', 1],
  ])('level %i → %s × %i', (level, kind, count) => {
    expect(chatLevelIcon(level)).toEqual({ kind, count });
  });

  it('treats negative or invalid levels as 0 and rounds fractions down', () => {
    expect(chatLevelIcon(-3)).toEqual({ kind: 'heart', count: 0 });
    expect(chatLevelIcon(Number.NaN)).toEqual({ kind: 'heart', count: 0 });
    expect(chatLevelIcon(5.9)).toEqual({ kind: 'heart', count: 5 });
  });
});

describe('starRating (spec §3)', () => {
  it('splits whole, half and empty stars', () => {
    expect(starRating(5)).toEqual({ full: 5, half: false, empty: 0 });
    expect(starRating(0)).toEqual({ full: 0, half: false, empty: 5 });
    expect(starRating(3)).toEqual({ full: 3, half: false, empty: 2 });
    expect(starRating(4.5)).toEqual({ full: 4, half: true, empty: 0 });
    expect(starRating(3.7)).toEqual({ full: 3, half: true, empty: 1 });
    expect(starRating(3.4)).toEqual({ full: 3, half: false, empty: 2 });
  });

  it('clamps to 0..max', () => {
    expect(starRating(7)).toEqual({ full: 5, half: false, empty: 0 });
    expect(starRating(-1)).toEqual({ full: 0, half: false, empty: 5 });
    expect(starRating(Number.NaN)).toEqual({ full: 0, half: false, empty: 5 });
  });

  it('supports another maximum', () => {
    expect(starRating(2.5, 3)).toEqual({ full: 2, half: true, empty: 0 });
    expect(starRating(10, 3)).toEqual({ full: 3, half: false, empty: 0 });
  });
});
