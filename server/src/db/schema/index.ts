/**
 * The database, section by section (Drizzle; migrations in server/drizzle are generated from these files).
 */
export * from './core'
export * from './register'
export * from './payment'
export * from './insurance'
export * from './chat'
export * from './internet'
export * from './inquiry'
export * from './staff'
export * from './operations'
export * from './records'
export * from './bills'
export * from './accounts'
export * from './survey'
export * from './medtech'
