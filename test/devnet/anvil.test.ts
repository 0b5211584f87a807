import { spawn } from 'node:child_process'
import { expect, test } from 'vitest'

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
