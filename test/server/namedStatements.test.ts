import { after, before, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'drizzle-orm'
import { openDatabase, rowsOf, scratchDatabase, type Database } from '../../server/src/db'

/**
 * PostgreSQL parses and plans a statement once per connection, not each time it is sent (db/index.ts namingClient),
 * as its own view of a session's prepared statements shows. Listed only in the PostgreSQL step of `npm test`
 * (scripts/test.mjs): PGlite has no pool and no such client.
 */

const serverUrl = process.env.TEST_DATABASE_URL
if (!serverUrl) throw new Error('test/server/namedStatements.test.ts needs a PostgreSQL server: set TEST_DATABASE_URL')

let scratch: Awaited<ReturnType<typeof scratchDatabase>>
before(async () => {
  scratch = await scratchDatabase(serverUrl, 'named')
  // migrated here, once: the migrations' own statements with parameters would otherwise take the first names of
  // whichever test opens the empty database first
  await (await openDatabase({ url: scratch.url, dataDir: '' })).close()
})
after(() => scratch.drop())

/** One connection (so that every statement runs in the session whose prepared statements are read). */
async function withDatabase(namedStatements: number, work: (database: Database) => Promise<void>) {
  const database = await openDatabase({ url: scratch.url, dataDir: '', poolSize: 1, namedStatements })
  try {
    await work(database)
  } finally {
    await database.close()
  }
}

/** This session's prepared statements of `text`, with how often each was planned. */
async function prepared(database: Database, text: string) {
  return rowsOf<{ name: string; plans: number }>(
    await database.db.execute(sql`select name, (generic_plans + custom_plans)::int as plans from pg_prepared_statements where statement = ${text}`),
  )
}

const SUM = 'select $1::int + $2::int as n'
const PRODUCT = 'select $1::int * $2::int as n'
const run = async (database: Database, op: '+' | '*', a: number, b: number) =>
  rowsOf<{ n: number }>(await database.db.execute(sql`select ${a}::int ${sql.raw(op)} ${b}::int as n`))[0]!.n

it('a statement sent again is the same prepared statement of the connection, answering with the new values', async () => {
  await withDatabase(500, async (database) => {
    assert.equal(await run(database, '+', 2, 3), 5)
    assert.equal(await run(database, '+', 40, 2), 42)
    const [statement, ...more] = await prepared(database, SUM)
    assert.equal(more.length, 0, 'one prepared statement for the text')
    assert.match(statement!.name, /^s\d+$/)
    assert.equal(statement!.plans, 2, 'run twice without being parsed again')
  })
})

it('DB_NAMED_STATEMENTS bounds the texts named; 0 names none, for a pooler that cannot keep them', async () => {
  await withDatabase(1, async (database) => {
    assert.equal(await run(database, '+', 1, 1), 2)
    assert.equal(await run(database, '*', 3, 4), 12)
    assert.equal((await prepared(database, SUM)).length, 1, 'the first text is named')
    assert.equal((await prepared(database, PRODUCT)).length, 0, 'past the bound, texts go unnamed')
  })
  await withDatabase(0, async (database) => {
    assert.equal(await run(database, '*', 6, 7), 42)
    const names = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_prepared_statements`))
    assert.equal(names[0]!.n, 0)
  })
})
