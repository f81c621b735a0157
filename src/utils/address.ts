/** spec §5, §9: a textarea takes at most 140 characters; the address detail is one. */
export const DETAIL_MAX_LENGTH = 140

/**
 * Cities in the national division list that are not places (a province's directly administered counties): an
 * address leaves them out, as it leaves out a municipality's repeated city.
 */
const PLACEHOLDER_CITIES = new Set(['县', '省直辖县', '自治区直辖县级行政区划'])

/**
 * Region names as an address shows them, one rule for the app and the server: "广东省 深圳市 南山区";
 * "北京市 北京市 朝阳区" -> "北京市 朝阳区"; "海南省 省直辖县 五指山市" -> "海南省 五指山市".
 */
export function regionLabel(names: string[]): string {
  return names.filter((n, i) => n && n !== names[i - 1] && !(i === 1 && PLACEHOLDER_CITIES.has(n))).join(' ')
}
