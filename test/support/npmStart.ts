import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readDevnetFile, type DevnetFile } from '../../devnet/devnetFile'

export type RunningDevnet = {
  file: DevnetFile
  output: () => string
  /** Ctrl-C, as a developer stops it; resolves with the exit code. */
  stop(): Promise<number | null>
}

/** What `npm start` runs, in its own process, on free loopback ports unless `env` names one; ready
 * once devnet.json is written. It serves the page `npm run build` made when that page pins its node,
 * else builds its own. */
export async function startNpmStart(env: Record<string, string> = {}): Promise<RunningDevnet> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-devnet-'))
  const child = spawn(process.execPath, ['--import', 'tsx', 'devnet/start.ts'], {
    env: { ...process.env, SVC_DEVNET_DIR: dir, PORT: '0', DEVNET_RPC_PORT: '0', STOREFRONT_PORT: '0', IDENTITY_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGINT')
    // a clean stop also stops anvil; one that hangs is killed rather than hanging the suite
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const code = await exited
    clearTimeout(killer)
    // the page build it started may still be writing its last files as it goes
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
    return code
  }
  // a devnet on free ports builds its own page first (devnet/devnetPage.ts): over a minute when the
  // two cores are busy with other runs
  const deadline = Date.now() + 240_000
  while (!existsSync(join(dir, 'devnet.json'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`npm start did not come up:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { file: readDevnetFile(dir), output: () => output, stop }
}
