/** 化验单解读 (spec §2 /internet/inspectRead/inspect-read): the examination items by category. */
export const INSPECT_READ_URL = '/internet/inspectRead/inspect-read'

/** One item explained (/internet/inspectRead/inspect-detail?id=). */
export const inspectDetailUrl = (id: string) => `/internet/inspectRead/inspect-detail?id=${encodeURIComponent(id)}`
