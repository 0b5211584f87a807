import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { stopNotedClusters } from './postgresCluster'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each worker keeps the devnet it shares among its test files (test/support/devnet.ts). */
    devnetSlotsDir: string
  }
}

/**
 * Vitest global setup of the `node` project: one devnet per worker, started by the first test file
 * that needs a chain and reused by the next ones on that worker, each file reverting the chain to
 * where it found it; likewise one PostgreSQL cluster per worker. The teardown stops them all.
 */
export default function workerDevnets(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-worker-devnets-'))
  project.provide('devnetSlotsDir', dir)
  return async () => {
    await stopNotedClusters(dir)
    for (const file of readdirSync(dir).filter((name) => name.startsWith('slot-') && name.endsWith('.json'))) {
      const { anvil: { pid } } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { anvil: { pid: number } }
      try {
        process.kill(pid, 'SIGTERM')
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true })
  }
}
