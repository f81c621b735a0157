import {
  COUNTDOWN_SECONDS,
  PHONE_CODE_LENGTH,
  countdownText,
  isMobile,
  isPhoneCode,
} from '../../src/utils/phoneCode';

describe('phone code (spec §5, §9)', () => {
  it('uses 6 digits and a 60 s countdown', () => {
    expect(PHONE_CODE_LENGTH).toBe(6);
    expect(COUNTDOWN_SECONDS).toBe(60);
  });

  it('accepts exactly 6 digits', () => {
    expect(isPhoneCode('123456')).toBe(true);
    expect(isPhoneCode('000000')).toBe(true);
    expect(isPhoneCode('12345')).toBe(false);
    expect(isPhoneCode('1234567')).toBe(false);
    expect(isPhoneCode('12345a')).toBe(false);
    expect(isPhoneCode(' 123456')).toBe(false);
    expect(isPhoneCode('')).toBe(false);
    expect(isPhoneCode(null)).toBe(false);
  });

  it('accepts mainland 11-digit mobiles starting 13-19', () => {
    expect(isMobile('13812345678')).toBe(true);
    expect(isMobile('19912345678')).toBe(true);
    expect(isMobile('12812345678')).toBe(false);
    expect(isMobile('1381234567')).toBe(false);
    expect(isMobile('138123456789')).toBe(false);
    expect(isMobile('23812345678')).toBe(false);
    expect(isMobile(undefined)).toBe(false);
  });

  it('shows the countdown texts', () => {
    expect(countdownText(COUNTDOWN_SECONDS, false)).toBe('获取验证码');
    expect(countdownText(0, false)).toBe('获取验证码');
    expect(countdownText(60, true)).toBe('60秒后重新获取');
    expect(countdownText(1, true)).toBe('1秒后重新获取');
    expect(countdownText(0, true)).toBe('重新获取');
    expect(countdownText(-1, true)).toBe('重新获取');
  });
});
