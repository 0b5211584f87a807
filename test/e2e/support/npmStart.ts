import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readDevnetFile, type DevnetFile } from '../../../server/devnet/devnetFile'

export type RunningDevnet = { file: DevnetFile; output: () => string; stop(): Promise<void> }

/** What `npm start` runs (the page is built by `npm test`'s pretest), on free loopback ports. */
export async function startNpmStart(env: Record<string, string> = {}): Promise<RunningDevnet> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'))
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    env: { ...process.env, SVC_DEVNET_DIR: dir, PORT: '0', DEVNET_RPC_PORT: '0', STOREFRONT_PORT: '0', LOG_REQUESTS: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGINT')
    // a clean stop also stops anvil; one that hangs is killed rather than hanging the suite
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(killer)
    rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 60_000
  while (!existsSync(join(dir, 'devnet.json'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`npm start did not come up:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { file: readDevnetFile(dir), output: () => output, stop }
}
