/**
 * Who looks after a hospital's settings: a platform administrator, or the hospital's own staff (the role
 * `staff:<hospitalCode>` in userinfo.roles). The server refuses everyone else (requireStaff); the app shows 医院设置
 * only to them.
 */
export function isStaffOf(roles: readonly string[], hospitalCode: string): boolean {
  return roles.includes('admin') || roles.includes(`staff:${hospitalCode}`)
}
