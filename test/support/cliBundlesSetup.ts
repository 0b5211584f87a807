import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'

/** Vitest global setup of the projects whose tests start our command-line tools: the folder their
 * workers bundle them into (test/support/cliBundle.ts), removed with the run. */
export default function cliBundlesSetup(project: TestProject) {
  // inside the repository, so that node finds the packages a bundle leaves out where npm put them
  const cache = fileURLToPath(new URL('../../node_modules/.cache', import.meta.url))
  mkdirSync(cache, { recursive: true })
  const bundles = mkdtempSync(join(cache, 'svc-cli-'))
  project.provide('cliBundlesDir', bundles)
  return () => rmSync(bundles, { recursive: true, force: true })
}
