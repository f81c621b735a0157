/**
 * How much one top-up may be, in fen: the server refuses anything else (server/src/domain/recharge), and the pages
 * check it first so the patient reads why before paying.
 */
/** 门诊预交金 (the hospital-card balance): 1 to 5,000 yuan a time. */
export const CLINIC_LIMITS = { minFen: 100, maxFen: 500_000 }
/** 住院预交金 (the deposit of a stay): 1 to 50,000 yuan a time. */
export const INPATIENT_LIMITS = { minFen: 100, maxFen: 5_000_000 }
