import { readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where a run's shared install of the packed package (test/support/packedPackage.ts) is named from:
 * vitest's own process, the parent of every worker of either project, names the run. */
export const sharedInstallPrefix = (runPid: number) => `svc-packed-package-${runPid}-`

/** Vitest global setup of both projects whose files install the packed package (test/package in
 * `node`, test/e2e/merchantPackage in `built`): the install they share is removed with the run. */
export default function packedPackageSetup() {
  return () => {
    for (const name of readdirSync(tmpdir()).filter((name) => name.startsWith(sharedInstallPrefix(process.pid)))) rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}
