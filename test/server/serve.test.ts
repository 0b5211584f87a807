import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { listenOnLoopback } from '../support/loopback'
import { useMigratedDataDirs } from '../support/migratedDataDir'
import { useDatabases } from '../support/postgres'
import { runCli } from '../support/runCli'

const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
/** Everything npm run serve needs but the database. */
const env = {
  RPC_URL: 'http://127.0.0.1:9',
  CHAIN_ID: '31337',
  TOKEN_ADDRESS: address,
  REGISTRY_ADDRESS: address,
  VAULT_FACTORY_ADDRESS: address,
  PAYMASTER_ADDRESS: address,
  BUNDLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  PAYMASTER_SIGNER_PRIVATE_KEY: `0x${'22'.repeat(32)}`,
  METADATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  PORT: '0',
  RECONCILE_INTERVAL_MS: '0',
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-serve-'))
const databases = useDatabases()
const dataDirs = useMigratedDataDirs()
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('npm run serve', () => {
  test('behavior: without DATABASE_URL or DATA_DIR it refuses to start, saying why', async () => {
    const run = await runCli('server/serve.ts', [], env)
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('DATABASE_URL is missing: the server needs PostgreSQL')
    expect(run.stderr).toContain('a signed merchant request could be replayed once on every other instance')
    expect(run.stderr).toContain('set DATA_DIR to the PGlite directory')
    expect(run.stdout).toBe('')
  })

  test('behavior: a PORT another program holds is refused in one line naming PORT, with no stack trace', async () => {
    const taken = createServer()
    const port = await listenOnLoopback(taken, 0)
    try {
      const run = await runCli('server/serve.ts', [], { ...env, DATABASE_URL: await databases.postgresUrl(), PORT: String(port) })
      expect(run.code).toBe(2)
      expect(run.stderr.trim()).toBe(`PORT ${port} on 127.0.0.1 cannot be listened on (EADDRINUSE): another program is listening there: stop it, or choose a free port with PORT`)
    } finally {
      taken.close()
    }
  })

  test('behavior: on an address other machines reach, without OPS_PORT, it refuses to start in one line naming OPS_PORT', async () => {
    // refused before listening: nothing is bound to 0.0.0.0
    const run = await runCli('server/serve.ts', [], { ...env, DATA_DIR: dataDir, HOST: '0.0.0.0' })
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toMatch(/^OPS_PORT is missing: HOST 0\.0\.0\.0 is reachable from other machines[^\n]*$/)
    expect(run.stdout).toBe('')
  })

  test('behavior: with DATA_DIR set it starts, and its log says single-instance mode; its listener holds to HTTP_HEADERS_TIMEOUT_MS', async () => {
    // a database an earlier start left (the first start on an empty directory makes it as the devnet
    // does: test/devnet/devnetDatabase.test.ts)
    const dataDir = await dataDirs.create()
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/serve.ts'], {
      env: { PATH: process.env.PATH ?? '', ...env, DATA_DIR: dataDir, HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk
        if (stdout.includes('"msg":"listening"')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`npm run serve exited (${code}) before listening:\n${stdout}`)))
    })
    // a client that never ends its headers is answered 408 and cut off after the configured second
    const { url } = JSON.parse(stdout.split('\n').find((line) => line.includes('"msg":"listening"'))!) as { url: string }
    const slow = connect(Number(new URL(url).port), '127.0.0.1')
    let received = ''
    slow.on('data', (chunk) => (received += chunk))
    slow.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const opened = performance.now()
    const closedAfter = await Promise.race([once(slow, 'close').then(() => performance.now() - opened), sleep(5_000).then(() => null)])
    slow.destroy()
    expect(closedAfter).not.toBeNull()
    expect(closedAfter!).toBeGreaterThanOrEqual(900)
    expect(received).toMatch(/^HTTP\/1\.1 408 /)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; dataDir?: string })
    expect(lines.find((line) => line.msg.startsWith('single-instance mode'))).toMatchObject({ dataDir })
  })
})
