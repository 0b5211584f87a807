import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll } from 'vitest'
import { freePort } from './loopback'
import { openDatabase, type Database } from '../../server/store/database'
import { migrate } from '../../server/store/migrations'

const run = promisify(execFile)

/** Every store test runs on both: the embedded default and the server production uses. */
export const backends = ['pglite', 'postgres'] as const
export type Backend = (typeof backends)[number]

type PostgresServer = {
  /** A new, empty database on the server; its connection string. */
  createDatabase(): Promise<string>
  stop(): Promise<void>
}

/** Debian keeps the server programs off PATH, under /usr/lib/postgresql/<major>/bin. */
function postgresBinDir(): string {
  const debian = '/usr/lib/postgresql'
  const majors = existsSync(debian) ? readdirSync(debian).filter((major) => existsSync(join(debian, major, 'bin', 'initdb'))) : []
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0]
  if (newest) return join(debian, newest, 'bin')
  const onPath = (process.env.PATH ?? '').split(delimiter).find((dir) => existsSync(join(dir, 'initdb')))
  if (onPath) return onPath
  throw new Error('PostgreSQL is not installed: run `apt-get install -y postgresql`, or set DATABASE_URL to a server where the tests may create databases')
}

/** A throwaway cluster on 127.0.0.1 in a temporary directory. PostgreSQL refuses to run as root, so
 * as root it runs as the `postgres` user, which then owns the directory. */
export async function startCluster(): Promise<PostgresServer> {
  const bin = postgresBinDir()
  const asRoot = process.getuid?.() === 0
  const as = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args)
  const dir = await mkdtemp(join(tmpdir(), 'svc-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'postgres.log')
  try {
    if (asRoot) await run('chown', ['postgres:', dir])
    // Durability is worth nothing in a cluster deleted after the file.
    await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions', '-E', 'UTF8', '--locale=C'])
    const port = await freePort()
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
    await as('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', options, 'start']).catch(async (error: Error) => {
      throw new Error(`PostgreSQL did not start:\n${await readFile(log, 'utf8').catch(() => '')}`, { cause: error })
    })
    const admin = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres` })
    return {
      async createDatabase() {
        const name = `svc_test_${randomBytes(6).toString('hex')}`
        await admin.query(`CREATE DATABASE ${name}`)
        return `postgres://postgres@127.0.0.1:${port}/${name}`
      },
      async stop() {
        await admin.close()
        await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
        await rm(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

/** DATABASE_URL's server instead of a cluster of our own: databases are created on it and dropped after. */
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

export type OpenOptions = { migrated?: boolean }

/**
 * Fresh databases for one test file, closed after it. PostgreSQL starts on the first request for
 * it (a cluster of our own, or DATABASE_URL's server) and stops after the file.
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
    server ??= databaseUrl ? useServer(databaseUrl) : startCluster()
    return (await server).createDatabase()
  }

  return {
    /** A new database, with the schema unless `migrated: false`. */
    async open(backend: Backend, { migrated = true }: OpenOptions = {}): Promise<Database> {
      const db = await connect(await newDatabaseUrl(backend))
      if (migrated) await migrate(db)
      return db
    },

    /** Two handles on one new database, as two server instances have: two pools on PostgreSQL. An
     * embedded PGlite belongs to one process, so there both are the same instance. */
    async openTwo(backend: Backend, { migrated = true }: OpenOptions = {}): Promise<[Database, Database]> {
      const url = await newDatabaseUrl(backend)
      const first = await connect(url)
      if (migrated) await migrate(first)
      return [first, url ? await connect(url) : first]
    },
  }
}
