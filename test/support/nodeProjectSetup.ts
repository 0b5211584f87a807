import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { requireSystemTools } from './systemTools'
import workerDevnets from './workerDevnets'

/** Global setup of the `node` project: PostgreSQL, Redis and pdftotext first, then the workers'
 * devnets and the folder their command-line tools are bundled into (test/support/cliBundle.ts). */
export default function nodeProjectSetup(project: TestProject) {
  requireSystemTools(['postgresql', 'redis-server', 'poppler-utils'])
  // inside the repository, so that node finds the packages a bundle leaves out where npm put them
  const cache = fileURLToPath(new URL('../../node_modules/.cache', import.meta.url))
  mkdirSync(cache, { recursive: true })
  const bundles = mkdtempSync(join(cache, 'svc-cli-'))
  project.provide('cliBundlesDir', bundles)
  const stopDevnets = workerDevnets(project)
  return async () => {
    await stopDevnets()
    rmSync(bundles, { recursive: true, force: true })
  }
}
