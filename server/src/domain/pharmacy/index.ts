/** Pharmacies, delivery, the shop and pharmacy orders (issue 19); the pharmacy console of the workbench. */
export * from './stores'
export * from './orders'
export * from './console'
