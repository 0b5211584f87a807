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

/** A database of the server at `url` named `name`: the same server, user and options. */
function databaseUrlOf(url: string, name: string): string {
  const databaseUrl = new URL(url)
  databaseUrl.pathname = `/${name}`
  return databaseUrl.toString()
}

/** A server's databases for one test file, created on it and dropped after the file; with a
 * `migratedTemplate`, migrated ones too, as copies of it. */
type FileDatabases = PostgresServer & { createMigratedDatabase?(): Promise<string> }

async function useServer(url: string, migratedTemplate?: () => Promise<string>): Promise<FileDatabases> {
  const admin = await openDatabase({ url })
  const created: string[] = []
  const create = async (template?: string) => {
    const name = `svc_test_${randomBytes(6).toString('hex')}`
    // a copy by files: the default (WAL_LOG) writes the template's every page to the WAL too
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template} STRATEGY FILE_COPY` : ''}`)
    created.push(name)
    return databaseUrlOf(url, name)
  }
  return {
    createDatabase: () => create(),
    ...(migratedTemplate ? { createMigratedDatabase: async () => create(await migratedTemplate()) } : {}),
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

let template: Promise<string> | undefined

/**
 * The worker's migrated database in its cluster, made on first use and copied for every migrated
 * database a file asks for (CREATE DATABASE … TEMPLATE): a copy costs what an empty database does,
 * where running the 30 migrations on each new one cost 0.15-0.3 s of the test's and the server's CPU,
 * once or twice a file. Nothing stays connected to it: PostgreSQL copies only a database no session uses.
 */
function workerTemplate(clusterUrl: string): Promise<string> {
  template ??= (async () => {
    const name = 'svc_migrated_template'
    const admin = await openDatabase({ url: clusterUrl })
    await admin.query(`CREATE DATABASE ${name}`).finally(() => admin.close())
    const db = await openDatabase({ url: databaseUrlOf(clusterUrl, name) })
    await migrate(db).finally(() => db.close())
    return name
  })()
  return template
}

let migratedPglite: Promise<Blob> | undefined

/**
 * The worker's migrated PGlite, as a dump every migrated PGlite a file asks for starts as (PGlite's
 * loadDataDir) instead of an empty one the file migrated: the migrations cost 0.2-0.35 s of CPU a
 * database. This one runs the real migrations on PGlite, once per worker; a file proving that they
 * run from empty on PGlite asks for an unmigrated database (test/store/migrations.test.ts).
 *
 * Its copies keep 16 MB of shared buffers rather than PostgreSQL's 128 MB: a test's database holds a
 * few hundred rows, and setting up the larger pool was a fifth of each open (about 0.1 s of CPU of
 * 0.5 s), as a throwaway PostgreSQL cluster runs without fsync (postgresCluster.ts).
 */
function workerMigratedPglite(): Promise<Blob> {
  migratedPglite ??= (async () => {
    const db = await openDatabase()
    try {
      await migrate(db)
      await db.query("ALTER SYSTEM SET shared_buffers = '16MB'")
      // each copy then starts from a checkpoint after the migrations rather than replaying their WAL
      await db.query('CHECKPOINT')
      return await db.dumpDataDir!()
    } finally {
      await db.close()
    }
  })()
  return migratedPglite
}

/** Under the `node` project, the worker's cluster (test/support/workerDevnets.ts) and its migrated
 * template; elsewhere a cluster of the file's own. */
function clusterFor(slotsDir: string | undefined): Promise<FileDatabases> {
  if (!slotsDir) return startCluster()
  return workerCluster(slotsDir).then((started) => useServer(started.url, () => workerTemplate(started.url)))
}

export type OpenTestDatabaseParameters = { migrated?: boolean }

/**
 * Fresh databases for one test file, closed and dropped after it. PostgreSQL starts on the first
 * request for it (the worker's cluster, or DATABASE_URL's server).
 */
export function useDatabases() {
  let server: Promise<FileDatabases> | undefined
  const opened: Database[] = []

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()))
    await (await server)?.stop()
  })

  async function connect({ url, loadDataDir }: { url?: string | undefined; loadDataDir?: Blob | undefined }): Promise<Database> {
    const db = await openDatabase({ url, loadDataDir })
    opened.push(db)
    return db
  }

  const postgres = (): Promise<FileDatabases> => {
    const databaseUrl = process.env.DATABASE_URL
    server ??= databaseUrl ? useServer(databaseUrl) : clusterFor(inject('devnetSlotsDir'))
    return server
  }

  /** A new database's URL (none for PGlite, which lives in memory, from the dump it loads if any),
   * and whether it has the schema already. */
  async function newDatabase(backend: Backend, migrated: boolean): Promise<{ url?: string; loadDataDir?: Blob; migrated: boolean }> {
    if (backend === 'pglite') return migrated ? { loadDataDir: await workerMigratedPglite(), migrated: true } : { migrated: false }
    const databases = await postgres()
    if (migrated && databases.createMigratedDatabase) return { url: await databases.createMigratedDatabase(), migrated: true }
    return { url: await databases.createDatabase(), migrated: false }
  }

  return {
    /** A new database, with the schema unless `migrated: false`. */
    async open(backend: Backend, { migrated = true }: OpenTestDatabaseParameters = {}): Promise<Database> {
      const created = await newDatabase(backend, migrated)
      const db = await connect(created)
      if (migrated && !created.migrated) await migrate(db)
      return db
    },

    /** A new, empty PostgreSQL database's URL, for a server in another process. */
    postgresUrl: async (): Promise<string> => (await postgres()).createDatabase(),

    /** A new PostgreSQL database's URL for a server that migrates it as it starts: a copy of the
     * worker's migrated template where there is one, leaving the server's migration nothing to do
     * (a server migrating an empty one is serve.test.ts's and devnetDatabase.test.ts's), else empty. */
    migratedPostgresUrl: async (): Promise<string> => (await newDatabase('postgres', true)).url!,

    /** Two handles on one new database, as two server instances have: two pools on PostgreSQL. An
     * embedded PGlite belongs to one process, so there both are the same instance. */
    async openTwo(backend: Backend, { migrated = true }: OpenTestDatabaseParameters = {}): Promise<[Database, Database]> {
      const created = await newDatabase(backend, migrated)
      const first = await connect(created)
      if (migrated && !created.migrated) await migrate(first)
      return [first, created.url ? await connect({ url: created.url }) : first]
    },
  }
}
