/**
 * A page's query value as text, whether or not the router decoded it already: the H5 router hands values over as they
 * stand in the address, mini-programs still encoded. A value that does not decode is taken as given.
 */
export function queryText(value: string | undefined): string {
  if (!value) return ''
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
