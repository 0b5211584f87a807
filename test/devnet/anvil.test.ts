import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { startAnvil } from '../../devnet/anvil'
import { listenOnLoopback } from '../support/loopback'

const running = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

test('behavior: a devnet process that dies of an uncaught error takes its chain with it, so the next npm start finds the port free', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/anvilThenCrash.ts'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  expect(code).toBe(1)
  expect(stderr).toContain('failed after the chain started')
  const pid = Number(stdout.trim())
  expect(pid).toBeGreaterThan(0)
  await expect.poll(() => running(pid)).toBe(false)
}, 30_000)

test('behavior: a node port another program holds is refused naming the port and DEVNET_RPC_PORT, not in anvil\'s words', async () => {
  const taken = createServer()
  const port = await listenOnLoopback(taken, 0)
  try {
    await expect(startAnvil({ port })).rejects.toThrow(
      `port ${port} on 127.0.0.1 is taken: another program is listening there (an earlier npm start?): stop it, or run the devnet's node on another port with DEVNET_RPC_PORT`,
    )
  } finally {
    taken.close()
  }
})
