import { factsOfValidIdCard, isValidIdCard, parseIdCard } from '../../src/utils/idCard';

// Check characters computed with the GB 11643 weights (7,9,10,5,8,4,2,1,6,3,7,9,10,5,8,4,2
// over '10X98765432') by a throwaway node script, not guessed.
const MALE_18 = '110101199003074514'; // 1990-03-07, 17th digit 1 (odd) → male
const FEMALE_18 = '110101199003074522'; // 1990-03-07, 17th digit 2 (even) → female
const X_CHECK_18 = '32010219750615001X'; // 1975-06-15, check character X, 17th digit 1 → male
const LEAP_FEMALE_18 = '110105200002290021'; // 2000-02-29, 17th digit 2 → female
const BAD_DATE_18 = '110105199002290026'; // checksum right, but 1990-02-29 does not exist
const MALE_15 = '110101900307451'; // 19900307, 15th digit 1 → male
const FEMALE_15 = '110101900307452'; // 19900307, 15th digit 2 → female

describe('parseIdCard (spec §3, §5)', () => {
  const now = new Date(2024, 5, 1); // 2024-06-01 local

  it('reads birth date (characters 7-14) and male sex from an odd 17th digit', () => {
    expect(parseIdCard(MALE_18, now)).toEqual({
      birthday: '1990-03-07',
      age: 34,
      sex: 1,
      sexText: '男',
    });
  });

  it('reads female sex from an even 17th digit', () => {
    expect(parseIdCard(FEMALE_18, now)).toEqual({
      birthday: '1990-03-07',
      age: 34,
      sex: 2,
      sexText: '女',
    });
  });

  it('counts age in full years around the birthday', () => {
    expect(parseIdCard(MALE_18, new Date(2024, 2, 6))?.age).toBe(33);
    expect(parseIdCard(MALE_18, new Date(2024, 2, 7))?.age).toBe(34);
    expect(parseIdCard(MALE_18, new Date(1990, 2, 7))?.age).toBe(0);
  });

  it('handles an X check character and a leap-day birth', () => {
    expect(parseIdCard(X_CHECK_18, now)).toMatchObject({ birthday: '1975-06-15', sex: 1, sexText: '男' });
    expect(parseIdCard(LEAP_FEMALE_18, now)).toMatchObject({ birthday: '2000-02-29', age: 24, sex: 2 });
  });

  it('reads a 15-digit card as 19YYMMDD with sex from the 15th digit', () => {
    expect(parseIdCard(MALE_15, now)).toEqual({ birthday: '1990-03-07', age: 34, sex: 1, sexText: '男' });
    expect(parseIdCard(FEMALE_15, now)).toMatchObject({ birthday: '1990-03-07', sex: 2, sexText: '女' });
  });

  it('recognises only 15 or 18 characters', () => {
    expect(parseIdCard(MALE_18.slice(0, 17), now)).toBeNull();
    expect(parseIdCard(`${MALE_18}0`, now)).toBeNull();
    expect(parseIdCard(MALE_15.slice(0, 14), now)).toBeNull();
    expect(parseIdCard('', now)).toBeNull();
  });

  it('returns null for non-digits or an impossible birth date', () => {
    expect(parseIdCard('11010119900307451A', now)).toBeNull();
    expect(parseIdCard('1101011990030745X4', now)).toBeNull();
    expect(parseIdCard(BAD_DATE_18, now)).toBeNull();
    expect(parseIdCard('110101901307451', now)).toBeNull(); // month 13
  });
});

describe('isValidIdCard (spec §5, GB 11643)', () => {
  const now = new Date(2024, 5, 1);

  it('accepts correct 18-digit numbers, male and female', () => {
    expect(isValidIdCard(MALE_18, now)).toBe(true);
    expect(isValidIdCard(FEMALE_18, now)).toBe(true);
    expect(isValidIdCard(LEAP_FEMALE_18, now)).toBe(true);
  });

  it('accepts the X check character in either case', () => {
    expect(isValidIdCard(X_CHECK_18, now)).toBe(true);
    expect(isValidIdCard(X_CHECK_18.toLowerCase(), now)).toBe(true);
  });

  it('rejects a wrong check character', () => {
    expect(isValidIdCard('110101199003074515', now)).toBe(false);
    expect(isValidIdCard('11010119900307451X', now)).toBe(false);
    expect(isValidIdCard('320102197506150010', now)).toBe(false);
  });

  it('accepts a 15-digit number with a real date', () => {
    expect(isValidIdCard(MALE_15, now)).toBe(true);
    expect(isValidIdCard('110101900230451', now)).toBe(false); // 1990-02-30
  });

  it('rejects impossible and future birth dates', () => {
    expect(isValidIdCard(BAD_DATE_18, now)).toBe(false);
    // 2024-02-29 (valid checksum '110105202402290011') is after 2024-02-28 but not after 2024-06-01.
    expect(isValidIdCard('110105202402290011', now)).toBe(true);
    expect(isValidIdCard('110105202402290011', new Date(2024, 1, 28))).toBe(false);
  });

  it('rejects other lengths and characters', () => {
    expect(isValidIdCard(MALE_18.slice(0, 17), now)).toBe(false);
    expect(isValidIdCard('', now)).toBe(false);
    expect(isValidIdCard(` ${MALE_18}`, now)).toBe(false);
    expect(isValidIdCard('11010119900307451x'.replace('x', 'Y'), now)).toBe(false);
  });

  it('defaults `now` to the current date', () => {
    expect(isValidIdCard(MALE_18)).toBe(true);
  });
});

describe('factsOfValidIdCard', () => {
  const now = new Date(2026, 10, 22)
  test('fills sex and birth date from a valid number only', () => {
    expect(factsOfValidIdCard('110105198805122718', now)).toEqual({ birthday: '1988-05-12', age: 38, sex: 1, sexText: '男' })
    expect(factsOfValidIdCard('110105198805122711', now)).toBeNull()
    expect(factsOfValidIdCard('11010519880512271', now)).toBeNull()
  })
})
