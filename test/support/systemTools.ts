import { existsSync, readdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { testBrowserPath } from './browserPaths'

/** The one line that installs everything `npm test` needs on a Debian machine (what .ci/run does). */
export const installLine = 'apt-get install -y chromium chromium-headless-shell postgresql redis-server poppler-utils'

const onPath = (program: string) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)))

/** Debian keeps PostgreSQL's server programs off PATH, under /usr/lib/postgresql/<major>/bin. */
const hasPostgres = () =>
  Boolean(process.env.DATABASE_URL) ||
  onPath('initdb') ||
  (existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((major) => existsSync(join('/usr/lib/postgresql', major, 'bin', 'initdb'))))

const tools = {
  chromium: () => existsSync(testBrowserPath),
  postgresql: hasPostgres,
  'redis-server': () => onPath('redis-server'),
  'poppler-utils': () => onPath('pdftotext'),
} satisfies Record<string, () => boolean>

export type SystemTool = keyof typeof tools

/**
 * Stops a test run before its first test when a program the tests start is missing, with the line
 * that installs it, instead of letting the first test that spawns it die of ENOENT minutes later.
 */
export function requireSystemTools(needed: SystemTool[]) {
  const missing = needed.filter((tool) => !tools[tool]())
  if (missing.length === 0) return
  throw new Error(`The tests need ${missing.join(', ')}, which this machine does not have. Install what they need with:\n\n  ${installLine}\n`)
}
