import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { openDatabase } from '../../server/store/database'
import { freePort } from './loopback'
import { throwawayParentDir } from './throwawayDir'

const run = promisify(execFile)

/** PostgreSQL refuses to run as root: as root its programs run as the `postgres` user. */
function asPostgres(program: string, args: string[]) {
  const path = join(postgresBinDir(), program)
  return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args)
}

/** Stops the cluster `startCluster` made in `dir` and deletes it; also from a process that did not start it. */
export async function stopCluster(dir: string) {
  await asPostgres('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(() => {})
  await rm(dir, { recursive: true, force: true })
}

/** Stops the clusters test workers noted in `slotsDir` (workerCluster in test/support/postgres.ts). */
export async function stopNotedClusters(slotsDir: string) {
  for (const file of readdirSync(slotsDir).filter((name) => name.startsWith('postgres-'))) {
    await stopCluster((JSON.parse(await readFile(join(slotsDir, file), 'utf8')) as { dir: string }).dir)
  }
}

export type PostgresServer = {
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

/** A throwaway cluster on 127.0.0.1 in a temporary directory, in memory where there is room for it
 * (throwawayDir.ts). PostgreSQL refuses to run as root, so as root it runs as the `postgres` user,
 * which then owns the directory. */
export async function startCluster(): Promise<PostgresServer & { url: string; dir: string }> {
  const dir = await mkdtemp(join(throwawayParentDir(), 'svc-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'postgres.log')
  try {
    if (process.getuid?.() === 0) await run('chown', ['postgres:', dir])
    // Durability is worth nothing in a cluster deleted after the file.
    await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--no-instructions', '-E', 'UTF8', '--locale=C'])
    const port = await freePort()
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
    await asPostgres('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', '-o', options, 'start']).catch(async (error: Error) => {
      throw new Error(`PostgreSQL did not start:\n${await readFile(log, 'utf8').catch(() => '')}`, { cause: error })
    })
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`
    const admin = await openDatabase({ url })
    return {
      url,
      dir,
      async createDatabase() {
        const name = `svc_test_${randomBytes(6).toString('hex')}`
        await admin.query(`CREATE DATABASE ${name}`)
        return `postgres://postgres@127.0.0.1:${port}/${name}`
      },
      async stop() {
        await admin.close()
        await stopCluster(dir)
      },
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}

