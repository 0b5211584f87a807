import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { installLine } from '../support/systemTools'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** `vitest run` as a newcomer's machine runs it: a PATH with node and nothing the tests start. */
async function runWithoutSystemTools(files: string[]) {
  const bin = mkdtempSync(join(tmpdir(), 'svc-bare-path-'))
  symlinkSync(process.execPath, join(bin, 'node'))
  try {
    // no CHROMIUM_PATH, no DATABASE_URL, none of this run's VITEST_* variables
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...files], { cwd: root, env: { PATH: bin, HOME: tmpdir(), NO_COLOR: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    return { code, stdout, stderr }
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
}

test('behavior: without the system packages, `vitest run` fails first and only with the install line, naming chromium-headless-shell among what is missing', async () => {
  // a file of the node project and one of the built project: each stops before anything starts
  const { code, stdout, stderr } = await runWithoutSystemTools(['test/suite.test.ts', 'test/size/embedSize.test.ts'])
  expect(code).toBe(1)
  const lines = stderr.trim().split('\n')
  expect(lines.slice(0, 3)).toEqual(['Install what the tests need, then run them again:', '', `  ${installLine}`])
  // postgresql may be found off PATH (Debian's /usr/lib/postgresql): the rest is not
  expect(lines[4]).toMatch(/^This machine lacks chromium, chromium-headless-shell, (postgresql, )?redis-server, poppler-utils\.$/)
  expect(lines).toHaveLength(5)
  // nothing else: no "No test files found", no stack, no second error
  expect(stdout).not.toMatch(/No test files found|Error/)
  expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^RUN {2}v[\d.]+ /)])
}, 60_000)
