/**
 * Health insurance rules both sides use (spec §6): which hospitals take health insurance online (chsList). The
 * server refuses insurance anywhere else; the app offers 医保支付 only here.
 */

/** spec §6 chsList: the hospitals that take health insurance online. */
export const CHS_HOSPITALS: readonly string[] = ['10388', '10397', '10389', '10403', '10399', '10412', '10404', '10392']

/** Whether the hospital takes health insurance online (spec §6 chsList). */
export const isChsHospital = (hospitalCode: string | null | undefined): boolean => !!hospitalCode && CHS_HOSPITALS.includes(hospitalCode)
