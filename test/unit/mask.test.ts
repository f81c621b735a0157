import { maskIdCard, maskMobile, maskName } from '../../src/utils/mask';

describe('maskIdCard (spec §9: first 6 and last 4)', () => {
  it('keeps first 6 and last 4 of an 18-digit number', () => {
    expect(maskIdCard('110101199003074514')).toBe('110101********4514');
    expect(maskIdCard('32010219750615001X')).toBe('320102********001X');
  });

  it('keeps the same length for a 15-digit number', () => {
    const masked = maskIdCard('110101900307451');
    expect(masked).toBe('110101*****7451');
    expect(masked).toHaveLength(15);
  });

  it('handles empty and short input without revealing too much', () => {
    expect(maskIdCard('')).toBe('');
    expect(maskIdCard(null)).toBe('');
    expect(maskIdCard(undefined)).toBe('');
    expect(maskIdCard('1234')).toBe('****');
    expect(maskIdCard('12345678')).toBe('12****78');
    expect(maskIdCard('123456789012')).toBe('1234****9012');
  });
});

describe('maskName (spec §9)', () => {
  it('leaves a single character as is', () => {
    expect(maskName('李')).toBe('李');
  });

  it('masks the second of two characters', () => {
    expect(maskName('张三')).toBe('张*');
  });

  it('keeps first and last of three or more', () => {
    expect(maskName('王小明')).toBe('王*明');
    expect(maskName('欧阳娜娜')).toBe('欧**娜');
  });

  it('handles empty input and whitespace', () => {
    expect(maskName('')).toBe('');
    expect(maskName(null)).toBe('');
    expect(maskName(' 张三 ')).toBe('张*');
  });
});

describe('maskMobile (spec §9: first 3 and last 4)', () => {
  it('puts 4 stars in the middle of an 11-digit number', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
  });

  it('handles empty and short input without revealing too much', () => {
    expect(maskMobile('')).toBe('');
    expect(maskMobile(undefined)).toBe('');
    expect(maskMobile('1234')).toBe('****');
    expect(maskMobile('12345678')).toBe('12****78');
  });
});
