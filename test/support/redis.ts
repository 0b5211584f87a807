import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { freePort } from './loopback'

export type RedisServer = {
  url: string
  /** Stops it as an outage would; `start` brings it back on the same port, empty. */
  stop(): Promise<void>
  start(): Promise<void>
}

/** A throwaway redis-server (Debian's, /usr/bin/redis-server) on 127.0.0.1 in a temporary
 * directory: nothing persisted, gone with the directory. */
export async function startRedis(): Promise<RedisServer & { close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-'))
  const port = await freePort()
  let child: ChildProcess | undefined

  async function start() {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes']
    const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    child = started
    await new Promise<void>((resolve, reject) => {
      let output = ''
      started.stdout!.on('data', (chunk) => {
        output += chunk
        if (output.includes('Ready to accept connections')) resolve()
      })
      started.once('error', reject)
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)))
    })
  }

  async function stop() {
    const running = child
    child = undefined
    if (!running || running.exitCode !== null) return
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve())
      running.kill('SIGTERM')
    })
  }

  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async close() {
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A redis-server for one test file: started before the file's servers, stopped after them. */
export function useRedis() {
  const context = {} as { redis: RedisServer }
  let server: Awaited<ReturnType<typeof startRedis>> | undefined
  beforeAll(async () => {
    server = await startRedis()
    context.redis = server
  })
  afterAll(async () => {
    await server?.close()
  })
  return context
}
