import { textLength } from '../../src/utils/text';

describe('textLength (spec §5)', () => {
  it('counts ASCII as 1 and Chinese as 2', () => {
    expect(textLength('ab中')).toBe(4);
    expect(textLength('张三')).toBe(4);
    expect(textLength('abc')).toBe(3);
    expect(textLength('')).toBe(0);
  });

  it('counts code 128 as 1 and code 129 as 2', () => {
    expect(textLength(String.fromCharCode(128))).toBe(1);
    expect(textLength(String.fromCharCode(129))).toBe(2);
  });

  it('iterates by code point, so an astral character counts 2, not 4', () => {
    expect(textLength('😀')).toBe(2);
    expect(textLength('a😀中')).toBe(5);
  });

  it('counts full-width punctuation as 2', () => {
    expect(textLength('好，')).toBe(4);
  });
});
