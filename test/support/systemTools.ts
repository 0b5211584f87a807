import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { onPath } from './browserPaths'

/** The one line that installs everything `npm test` needs on a Debian machine (what .ci/run does). */
export const installLine = 'apt-get install -y chromium chromium-headless-shell postgresql redis-server poppler-utils'

/** Debian keeps PostgreSQL's server programs off PATH, under /usr/lib/postgresql/<major>/bin. */
const hasPostgres = () =>
  Boolean(process.env.DATABASE_URL) ||
  Boolean(onPath('initdb')) ||
  (existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((major) => existsSync(join('/usr/lib/postgresql', major, 'bin', 'initdb'))))

/** Each package of the install line, and whether this machine has it. CHROMIUM_PATH names the one
 * browser the tests drive (test/support/browserPaths.ts): then neither Debian package is looked for. */
const packages = {
  chromium: () => (process.env.CHROMIUM_PATH ? existsSync(process.env.CHROMIUM_PATH) : Boolean(onPath('chromium'))),
  'chromium-headless-shell': () => (process.env.CHROMIUM_PATH ? existsSync(process.env.CHROMIUM_PATH) : Boolean(onPath('chromium-headless-shell'))),
  postgresql: hasPostgres,
  'redis-server': () => Boolean(onPath('redis-server')),
  'poppler-utils': () => Boolean(onPath('pdftotext')),
} satisfies Record<string, () => boolean>

/** What a test needs: a package, or `browser`, which either chromium package gives (the browser tests
 * drive the headless shell when it is there, the full chromium otherwise). */
export type SystemTool = Exclude<keyof typeof packages, 'chromium' | 'chromium-headless-shell'> | 'browser'

const has = (tool: SystemTool) => (tool === 'browser' ? packages.chromium() || packages['chromium-headless-shell']() : packages[tool]())

/**
 * Why a run that needs `needed` cannot start here, or null when it can: the install line first, then
 * every package of it this machine lacks (not only the ones `needed` names: one install, not one per
 * missing program).
 */
export function missingSystemTools(needed: SystemTool[]): string | null {
  if (needed.every(has)) return null
  const missing = Object.entries(packages)
    .filter(([, present]) => !present())
    .map(([name]) => name)
  return `Install what the tests need, then run them again:\n\n  ${installLine}\n\nThis machine lacks ${missing.join(', ')}.\n`
}

/** In a test: fails it with the install line when a program it starts is missing. */
export function requireSystemTools(needed: SystemTool[]) {
  const message = missingSystemTools(needed)
  if (message) throw new Error(message)
}

/**
 * In a project's global setup, before anything starts: when a program its tests start is missing,
 * prints the install line and ends the run (exit code 1). Thrown from a global setup, the error would
 * come after vitest's own "No test files found, exiting with code 1", which is not the reason; ending
 * the run through vitest still tears down what other projects' setups made.
 */
export async function stopUnlessSystemTools(project: TestProject, needed: SystemTool[]): Promise<boolean> {
  const message = missingSystemTools(needed)
  if (!message) return true
  process.stderr.write(`\n${message}\n`)
  process.exitCode = 1
  await project.vitest.exit(true)
  return false
}
