import {
  GUARDIAN_MIN_AGE,
  MAX_PATIENTS,
  NEONATE_MAX_AGE,
  ageOn,
  hospitalCardNo,
  isAppPagePath,
  isValidPatientName,
  missingPatientFields,
  neonateBirthdayProblem,
  parseDate,
  type PatientFacts,
} from '../../server/src/domain/patientRules';

const adult: PatientFacts = {
  name: '张三',
  idCard: '110101199003074514',
  mobile: '13812345678',
  neonate: false,
  guardianName: null,
  guardianIdCard: null,
};
const child: PatientFacts = {
  name: '张小宝',
  idCard: null,
  mobile: '13812345678',
  neonate: true,
  guardianName: '张三',
  guardianIdCard: '110101199003074514',
};

describe('missingPatientFields (spec §5 incomplete-information modal)', () => {
  it('finds nothing missing for a complete adult or child', () => {
    expect(missingPatientFields(adult)).toEqual([]);
    expect(missingPatientFields(child)).toEqual([]);
  });

  it('an adult needs a name, an identity number and a mobile', () => {
    expect(missingPatientFields({ ...adult, mobile: null })).toEqual(['mobile']);
    expect(missingPatientFields({ ...adult, idCard: null })).toEqual(['idCard']);
    expect(missingPatientFields({ ...adult, name: null })).toEqual(['name']);
    expect(missingPatientFields({ ...adult, name: null, idCard: null, mobile: null })).toEqual(['name', 'idCard', 'mobile']);
  });

  it('treats blank values as missing', () => {
    expect(missingPatientFields({ ...adult, name: '  ', mobile: '' })).toEqual(['name', 'mobile']);
  });

  it('a child without a card needs a guardian instead of an identity number', () => {
    expect(missingPatientFields({ ...child, guardianName: null })).toEqual(['guardianName']);
    expect(missingPatientFields({ ...child, guardianIdCard: ' ' })).toEqual(['guardianIdCard']);
    expect(missingPatientFields({ ...child, guardianName: null, guardianIdCard: null, mobile: null })).toEqual([
      'guardianName',
      'guardianIdCard',
      'mobile',
    ]);
  });

  it('an adult is never asked for a guardian', () => {
    expect(missingPatientFields({ ...adult, guardianName: null, guardianIdCard: null })).not.toContain('guardianName');
  });
});

describe('limits', () => {
  it('are the numbers the rules name', () => {
    expect(MAX_PATIENTS).toBe(5);
    expect(NEONATE_MAX_AGE).toBe(6);
    expect(GUARDIAN_MIN_AGE).toBe(18);
  });
});

describe('isValidPatientName', () => {
  it('accepts Chinese names and minority names joined by ·', () => {
    for (const name of ['李', '张三', '欧阳娜娜', '买买提·艾力', '阿沛·阿旺晋美']) expect(isValidPatientName(name)).toBe(true);
  });

  it('refuses empty, over-long, Latin, digits and stray dots', () => {
    for (const name of ['', '张'.repeat(21), 'Tom', '张3', '·张三', '张三·', '张··三', '张 三', '<b>']) expect(isValidPatientName(name)).toBe(false);
    expect(isValidPatientName('张'.repeat(20))).toBe(true);
  });
});

describe('parseDate and ageOn', () => {
  const now = new Date(2024, 5, 1); // 2024-06-01 local

  it('reads real dates only', () => {
    expect(parseDate('2020-02-29')).toEqual({ year: 2020, month: 2, day: 29 });
    expect(parseDate('2021-02-29')).toBeNull();
    expect(parseDate('2021-2-1')).toBeNull();
  });

  it('counts full years', () => {
    expect(ageOn('2018-06-01', now)).toBe(6);
    expect(ageOn('2018-06-02', now)).toBe(5);
    expect(ageOn('2025-01-01', now)).toBe(0);
    expect(ageOn('nonsense', now)).toBe(0);
  });
});

describe('neonateBirthdayProblem', () => {
  const now = new Date(2024, 5, 1);

  it('accepts a child under 6 born up to today', () => {
    expect(neonateBirthdayProblem('2024-06-01', now)).toBeNull();
    expect(neonateBirthdayProblem('2018-06-02', now)).toBeNull();
  });

  it('refuses a future date, a child of 6 or more, and an impossible date', () => {
    expect(neonateBirthdayProblem('2024-06-02', now)).toBe('出生日期不能晚于今天');
    expect(neonateBirthdayProblem('2018-06-01', now)).toBe('6岁及以上儿童请使用身份证绑定');
    expect(neonateBirthdayProblem('2023-02-29', now)).toBe('出生日期不正确');
  });
});

describe('hospitalCardNo', () => {
  it('is the hospital code and a zero-padded running number', () => {
    expect(hospitalCardNo('10392', 1)).toBe('1039200000001');
    expect(hospitalCardNo('10392', 12345678)).toBe('1039212345678');
  });
});

describe('isAppPagePath', () => {
  it('accepts app pages with their query', () => {
    for (const p of ['/pages/addPatient/index', '/pages/addPatient/index?id=3&business=edit', '/palm/register/index', '/custom/aixin/doctorList/index']) {
      expect(isAppPagePath(p)).toBe(true);
    }
  });

  it('refuses schemes, other hosts, climbing out and unknown roots', () => {
    for (const p of ['https://evil.example/pages/x', '//evil.example/pages/x', '/pages//x', '/pages/../x', '/pages\\x', 'pages/x', '/admin/x', '/pages/', 'javascript:alert(1)', '/pages/x#y', '']) {
      expect(isAppPagePath(p)).toBe(false);
    }
  });
});
