import { beforeAll, describe, expect, test } from 'vitest'
import { QueryError, type Database } from '../../server/store/database'
import { migrate, MigrationOrderError, migrations, pendingMigrations, type Migration } from '../../server/store/migrations'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()

const appliedVersions = async (db: Database) =>
  (await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((row) => row.version)

const tableExists = async (db: Database, table: string) =>
  (await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [table]))[0]?.present

const latest = migrations.at(-1)!.version
const allVersions = migrations.map((step) => step.version)

describe.each(backends)('%s', (backend) => {
  // One database for the tests below, which follow one history: first run, rerun, upgrades.
  let db: Database
  beforeAll(async () => {
    db = await databases.open(backend, { migrated: false })
  })

  test('default: the first run applies every step in order, a rerun applies nothing', async () => {
    expect(await migrate(db)).toEqual(allVersions)
    expect(await migrate(db)).toEqual([])
    expect(await appliedVersions(db)).toEqual(allVersions)
    for (const table of ['studios', 'api_keys', 'invoice_metadata', 'invoice_access_tokens', 'prepared_payments', 'payment_submissions', 'hmac_nonces']) {
      expect(await tableExists(db, table)).toBe(true)
    }
  })

  test('behavior: a later release applies only its new steps', async () => {
    const next: Migration = { version: latest + 1, name: 'test: a new table', statements: ['CREATE TABLE upgrade_probe (id integer PRIMARY KEY)'] }
    expect(await migrate(db, [...migrations, next])).toEqual([latest + 1])
    expect(await tableExists(db, 'upgrade_probe')).toBe(true)
    // An older release starting against the newer schema leaves the newer step alone.
    expect(await migrate(db)).toEqual([])
    expect(await appliedVersions(db)).toEqual([...allVersions, latest + 1])
  })

  test('behavior: a failing step leaves the schema as it was', async () => {
    const broken: Migration = {
      version: latest + 2,
      name: 'test: fails halfway',
      statements: ['CREATE TABLE half_done (id integer)', 'SELECT no_such_column FROM half_done'],
    }
    await expect(migrate(db, [...migrations, broken])).rejects.toBeInstanceOf(QueryError)
    expect(await tableExists(db, 'half_done')).toBe(false)
    expect(await appliedVersions(db)).not.toContain(latest + 2)
  })

  test('behavior: two instances starting at once apply each step exactly once', async () => {
    const [first, second] = await databases.openTwo(backend, { migrated: false })
    const results = await Promise.all([migrate(first), migrate(second), migrate(first), migrate(second)])
    expect(results.filter((applied) => applied.length > 0)).toEqual([allVersions])
    expect(await appliedVersions(second)).toEqual(allVersions)
  })

  test('behavior: pendingMigrations names the steps a database still lacks, all of them before the first run', async () => {
    const fresh = await databases.open(backend, { migrated: false })
    expect(await pendingMigrations(fresh)).toEqual(allVersions)
    await migrate(fresh)
    expect(await pendingMigrations(fresh)).toEqual([])
    const next: Migration = { version: latest + 1, name: 'test: a newer release', statements: [] }
    expect(await pendingMigrations(fresh, [...migrations, next])).toEqual([latest + 1])
  })

  test('parameters: versions must increase', async () => {
    const step = (version: number): Migration => ({ version, name: `v${version}`, statements: [] })
    await expect(migrate(db, [step(2), step(1)])).rejects.toBeInstanceOf(MigrationOrderError)
    await expect(migrate(db, [step(1), step(1)])).rejects.toThrowError(expect.objectContaining({ code: 'MIGRATION_ORDER' }))
  })
})
