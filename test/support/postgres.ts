import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, inject } from 'vitest'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'
import { startCluster, type PostgresServer } from './postgresCluster'

/** Every store test runs on both: the embedded default and the server production uses. */
export const backends = ['pglite', 'postgres'] as const
export type Backend = (typeof backends)[number]

/** A server's databases for one test file: created on it and dropped after the file. */
async function useServer(url: string): Promise<PostgresServer> {
  const admin = await openDatabase({ url })
  const created: string[] = []
  return {
    async createDatabase() {
      const name = `svc_test_${randomBytes(6).toString('hex')}`
      await admin.query(`CREATE DATABASE ${name}`)
      created.push(name)
      const databaseUrl = new URL(url)
      databaseUrl.pathname = `/${name}`
      return databaseUrl.toString()
    },
    async stop() {
      for (const name of created) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`)
      await admin.close()
    },
  }
}

let cluster: Promise<PostgresServer & { url: string }> | undefined

/** The test worker's own cluster, started on first use and noted in `slotsDir` for its project's
 * teardown to stop (stopNotedClusters): initdb and a start cost seconds, a database a few milliseconds. */
export function workerCluster(slotsDir: string): Promise<PostgresServer & { url: string }> {
  cluster ??= startCluster().then((started) => {
    writeFileSync(join(slotsDir, `postgres-${process.pid}.json`), JSON.stringify({ dir: started.dir }))
    return started
  })
  return cluster
}

/** Under the `node` project, the worker's cluster (test/support/workerDevnets.ts); elsewhere a
 * cluster of the file's own. */
function clusterFor(slotsDir: string | undefined): Promise<PostgresServer> {
  if (!slotsDir) return startCluster()
  return workerCluster(slotsDir).then((started) => useServer(started.url))
}

export type OpenTestDatabaseParameters = { migrated?: boolean }

/**
 * Fresh databases for one test file, closed and dropped after it. PostgreSQL starts on the first
 * request for it (the worker's cluster, or DATABASE_URL's server).
 */
export function useDatabases() {
  let server: Promise<PostgresServer> | undefined
  const opened: Database[] = []

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()))
    await (await server)?.stop()
  })

  async function connect(url: string | undefined): Promise<Database> {
    const db = await openDatabase({ url })
    opened.push(db)
    return db
  }

  async function newDatabaseUrl(backend: Backend): Promise<string | undefined> {
    if (backend === 'pglite') return undefined
    const databaseUrl = process.env.DATABASE_URL
    server ??= databaseUrl ? useServer(databaseUrl) : clusterFor(inject('devnetSlotsDir'))
    return (await server).createDatabase()
  }

  return {
    /** A new database, with the schema unless `migrated: false`. */
    async open(backend: Backend, { migrated = true }: OpenTestDatabaseParameters = {}): Promise<Database> {
      const db = await connect(await newDatabaseUrl(backend))
      if (migrated) await migrate(db)
      return db
    },

    /** A new, empty PostgreSQL database's URL, for a server in another process. */
    postgresUrl: async (): Promise<string> => (await newDatabaseUrl('postgres'))!,

    /** Two handles on one new database, as two server instances have: two pools on PostgreSQL. An
     * embedded PGlite belongs to one process, so there both are the same instance. */
    async openTwo(backend: Backend, { migrated = true }: OpenTestDatabaseParameters = {}): Promise<[Database, Database]> {
      const url = await newDatabaseUrl(backend)
      const first = await connect(url)
      if (migrated) await migrate(first)
      return [first, url ? await connect(url) : first]
    },
  }
}
