import { relative } from 'node:path'
import { execFileSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { createVitest } from 'vitest/node'

const root = new URL('..', import.meta.url).pathname

describe('the suite', () => {
  test('behavior: every test file in the repository runs in one of the vitest projects', async () => {
    const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.test.ts', '*.test.tsx'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
    // what `npm test` would run, as vitest itself globs it from vite.config.ts
    const vitest = await createVitest('test', { watch: false, config: `${root}vite.config.ts`, root })
    try {
      const specifications = await vitest.globTestSpecifications()
      const running = new Set(specifications.map((specification) => relative(root, specification.moduleId)))
      expect(tracked.filter((file) => !running.has(file))).toEqual([])
      expect(tracked.length).toBeGreaterThan(50)
    } finally {
      await vitest.close()
    }
  })
})
