/** A picture the server serves (a doctor's portrait, `/static/…`): on its origin, which the mini-programs must name. */
export const assetUrl = (src: string) => (src.startsWith('/') ? `${API_BASE}${src}` : src)
