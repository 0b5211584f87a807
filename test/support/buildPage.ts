import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { requireSystemTools } from './systemTools'

/**
 * Vitest global setup of the `built` project alone: the page, the merchant loader and their
 * compressed copies, built once before the tests that serve or weigh them. A run that selects none
 * of those (`vitest run test/auth`, `npm run test:unit`) builds nothing. The teardown stops the
 * devnets the workers shared among their browser tests (test/support/workerCheckout.ts).
 */
export default function buildPage(project: TestProject) {
  requireSystemTools(['chromium'])
  // vitest sets NODE_ENV=test, which would build Preact's debug tools into the page: build it as shipped
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
  const slots = mkdtempSync(join(tmpdir(), 'svc-worker-checkouts-'))
  project.provide('checkoutSlotsDir', slots)
  return () => {
    for (const name of readdirSync(slots)) {
      const { anvilPid, dir } = JSON.parse(readFileSync(join(slots, name), 'utf8')) as { anvilPid?: number; dir: string }
      try {
        if (anvilPid) process.kill(anvilPid, 'SIGTERM')
      } catch {
        // already gone with its worker
      }
      rmSync(dir, { recursive: true, force: true })
    }
    rmSync(slots, { recursive: true, force: true })
  }
}
