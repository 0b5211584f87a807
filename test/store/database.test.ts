import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { openDatabase, QueryError, type Database } from '../../server/store/database'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()

describe.each(backends)('%s', (backend) => {
  let db: Database
  beforeAll(async () => {
    db = await databases.open(backend, { migrated: false })
    await db.query('CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)')
  })

  test('default: parameters in, rows out', async () => {
    await db.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'one'])
    expect(await db.query('SELECT id, body FROM notes WHERE id = $1', [1])).toEqual([{ id: 1, body: 'one' }])
  })

  test('behavior: a transaction commits when its function resolves', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (id, body) VALUES (2, $1)', ['two'])
      return 'done'
    })
    expect(result).toBe('done')
    expect(await db.query('SELECT body FROM notes WHERE id = 2')).toEqual([{ body: 'two' }])
  })

  test('behavior: a transaction rolls back when its function throws, and rethrows that error', async () => {
    const reason = new Error('changed my mind')
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES (3, $1)', ['three'])
        throw reason
      }),
    ).rejects.toBe(reason)
    expect(await db.query('SELECT body FROM notes WHERE id = 3')).toEqual([])
  })

  test('behavior: a transaction whose failed statement was swallowed does not pretend to commit', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (id, body) VALUES (4, $1)', ['four'])
        await tx.query('INSERT INTO notes (id, body) VALUES (1, $1)', ['duplicate']).catch(() => {})
      }),
    ).rejects.toBeInstanceOf(QueryError)
    expect(await db.query('SELECT body FROM notes WHERE id = 4')).toEqual([])
  })

  test('behavior: a failed statement is a QueryError with its SQLSTATE and constraint, and no parameters', async () => {
    const secret = 'svc_tk_this-must-never-reach-a-log'
    const error: unknown = await db.query('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, secret]).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(QueryError)
    expect(error).toMatchObject({ code: 'QUERY_FAILED', sqlState: '23505', constraint: 'notes_pkey' })
    expect(JSON.stringify(error)).not.toContain(secret)
    expect((error as Error).message).not.toContain(secret)
    expect((error as Error).cause).toBeUndefined()
  })
})

test('pglite: a data directory keeps the data across restarts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-pglite-'))
  try {
    const dataDir = join(dir, 'nested', 'data')
    const first = await openDatabase({ dataDir })
    await first.query('CREATE TABLE kept (value text)')
    await first.query("INSERT INTO kept VALUES ('still here')")
    await first.close()
    const second = await openDatabase({ dataDir })
    expect(await second.query('SELECT value FROM kept')).toEqual([{ value: 'still here' }])
    await second.close()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test("pglite: a database in memory started from another's dump holds what the other held, and each keeps its later writes to itself", async () => {
  const original = await openDatabase()
  try {
    await original.query('CREATE TABLE copied (value text)')
    await original.query("INSERT INTO copied VALUES ('before the dump')")
    const copy = await openDatabase({ loadDataDir: await original.dumpDataDir!() })
    try {
      await copy.query("INSERT INTO copied VALUES ('only in the copy')")
      await original.query("INSERT INTO copied VALUES ('only in the original')")
      expect(await copy.query('SELECT value FROM copied ORDER BY value')).toEqual([{ value: 'before the dump' }, { value: 'only in the copy' }])
      expect(await original.query('SELECT value FROM copied ORDER BY value')).toEqual([{ value: 'before the dump' }, { value: 'only in the original' }])
    } finally {
      await copy.close()
    }
  } finally {
    await original.close()
  }
})

test('pglite: a dump is loaded into a database in memory only, and a data directory is left alone', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-pglite-'))
  try {
    const dataDir = join(dir, 'data')
    await expect(openDatabase({ dataDir, loadDataDir: new Blob([]) })).rejects.toThrow('a dump is loaded into a database in memory only')
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('postgres: an unreachable server is a QueryError that does not repeat the password', async () => {
  const db = await openDatabase({ url: 'postgres://svc:hunter2-secret@127.0.0.1:1/svc' })
  try {
    const error: unknown = await db.query('SELECT 1').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(QueryError)
    expect(error).toMatchObject({ sqlState: undefined })
    expect(JSON.stringify(error) + String(error)).not.toContain('hunter2')
  } finally {
    await db.close()
  }
})
