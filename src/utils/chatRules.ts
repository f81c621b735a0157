import type { OrderDescription } from '../../types/api/chat'

/** The doctor side's order descriptions (spec §4 chat session): each one reloads the order detail in the room. */
export const ORDER_DESCRIPTION = {
  start: 'start',
  return: 'return',
  doctorBusy: 'doctorBusy',
  orderFinished: 'orderFinished',
} as const satisfies Record<string, OrderDescription>

const orderDescriptions: readonly string[] = Object.values(ORDER_DESCRIPTION)
export const isOrderDescription = (description: string): description is OrderDescription => orderDescriptions.includes(description)
