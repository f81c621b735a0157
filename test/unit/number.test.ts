import {
  PRECISION_WARNING,
  checkBoundary,
  divide,
  fenToYuan,
  minus,
  plus,
  strip,
  times,
} from '../../src/utils/number';

describe('number helpers (spec §8, §9)', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
  });

  describe('strip', () => {
    it('rounds to 12 significant digits', () => {
      expect(strip(0.1 + 0.2)).toBe(0.3);
      expect(strip(1.0000000000001)).toBe(1);
      expect(strip(123.456)).toBe(123.456);
      expect(strip(1.23456, 3)).toBe(1.23);
    });
  });

  describe('plus / minus / times / divide', () => {
    it('adds decimals exactly', () => {
      expect(plus(0.1, 0.2)).toBe(0.3);
      expect(plus(0.1, 0.2, 0.3)).toBe(0.6);
      expect(plus(2.3, 2.4)).toBe(4.7);
      expect(plus(-0.1, 0.3)).toBe(0.2);
      expect(plus(1e-7, 2e-7)).toBe(3e-7);
    });

    it('subtracts decimals exactly', () => {
      expect(minus(1, 0.9)).toBe(0.1);
      expect(minus(0.3, 0.1)).toBe(0.2);
      expect(minus(1, 0.1, 0.2)).toBe(0.7);
    });

    it('multiplies decimals exactly', () => {
      expect(times(0.1, 3)).toBe(0.3);
      expect(times(0.07, 100)).toBe(7);
      expect(times(3, 0.3)).toBe(0.9);
      expect(times(1.1, 1.1, 10)).toBe(12.1);
      expect(times(-0.1, 0.2)).toBe(-0.02);
      expect(times(1.5e-7, 2)).toBe(3e-7);
    });

    it('divides decimals exactly', () => {
      expect(divide(0.3, 0.1)).toBe(3);
      expect(divide(1.21, 1.1)).toBe(1.1);
      expect(divide(0.69, 10)).toBe(0.069);
      expect(divide(12, 2, 3)).toBe(2);
      expect(divide(1, 3)).toBe(1 / 3);
    });

    it('does not warn inside the safe range', () => {
      plus(0.1, 0.2);
      times(19.9, 3);
      divide(1, 3);
      expect(warn).not.toHaveBeenCalled();
    });
  });

  describe('checkBoundary', () => {
    it('warns beyond the safe integer range with the spec text', () => {
      checkBoundary(Number.MAX_SAFE_INTEGER + 2);
      expect(warn).toHaveBeenCalledWith('超出了精度限制，结果可能不正确');
      expect(PRECISION_WARNING).toBe('超出了精度限制，结果可能不正确');
    });

    it('warns below the minimum safe integer', () => {
      checkBoundary(Number.MIN_SAFE_INTEGER - 2);
      expect(warn).toHaveBeenCalledTimes(1);
    });

    it('stays silent at the bounds themselves', () => {
      checkBoundary(Number.MAX_SAFE_INTEGER);
      checkBoundary(Number.MIN_SAFE_INTEGER);
      checkBoundary(0);
      expect(warn).not.toHaveBeenCalled();
    });

    it('is called on arithmetic results', () => {
      expect(times(Number.MAX_SAFE_INTEGER, 10)).toBe(Number.MAX_SAFE_INTEGER * 10);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenLastCalledWith('超出了精度限制，结果可能不正确');
      plus(Number.MAX_SAFE_INTEGER, 10);
      expect(warn).toHaveBeenCalledTimes(2);
    });
  });

  describe('fenToYuan', () => {
    it('formats fen as yuan with two decimals', () => {
      expect(fenToYuan(1230)).toBe('12.30');
      expect(fenToYuan(1)).toBe('0.01');
      expect(fenToYuan(0)).toBe('0.00');
      expect(fenToYuan(1500)).toBe('15.00');
      expect(fenToYuan(-5)).toBe('-0.05');
      expect(fenToYuan(99.6)).toBe('1.00');
      expect(fenToYuan(Number.NaN)).toBe('0.00');
    });
  });
});
