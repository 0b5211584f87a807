import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { benchNames, readBenchResults, type BenchResult } from '../../bench/benchResult'
import { recordBenchOutput } from '../../bench/recordBenchOutput'
import { figuresEnd, figuresStart, renderBenchmarksDoc } from '../../bench/renderBenchmarksDoc'

const page = `# Benchmarks\n\nHow to read them.\n\n${figuresStart}\nold figures\n${figuresEnd}\n\nAfter the figures.\n`

const lighthouse: BenchResult = {
  bench: 'lighthouseBench',
  measuredAt: '2026-11-24T09:01:02.345Z',
  commit: '15a22fe',
  machine: { cores: 2, cpu: 'Some CPU', loadAverage: [1.5, 0.75, 0.5], node: 'v20.19.0' },
  passed: true,
  output: ['performance                   1.00   (target ≥ 0.98)', 'LCP                         0.9 s', ''],
}

describe('renderBenchmarksDoc', () => {
  test('behavior: quotes a result as the bench printed it, with when, where and at which commit it ran', () => {
    const doc = renderBenchmarksDoc({ doc: page, results: new Map([['lighthouseBench', lighthouse]]) })
    expect(doc).toContain(
      [
        '### Lighthouse, mobile preset',
        '',
        '`bench/lighthouseBench.ts`, measured 2026-11-24 09:01 UTC at `15a22fe` on 2 cores (Some CPU), load average 1.50 / 0.75 / 0.50 at the end, Node v20.19.0.',
        '',
        '```text',
        'performance                   1.00   (target ≥ 0.98)',
        'LCP                         0.9 s',
        '```',
      ].join('\n'),
    )
  })

  test('behavior: a bench without a result file says it is not measured yet and how to measure it', () => {
    const doc = renderBenchmarksDoc({ doc: page, results: new Map() })
    expect(doc).toContain('### What the page and the loader weigh\n\n`npm run bench:size` (`bench/pageSizeBench.ts`): not measured yet: run `npm run bench`.')
    expect(doc.match(/not measured yet/g)).toHaveLength(benchNames.length)
  })

  test('behavior: replaces only what lies between the markers, and again on the next run', () => {
    const once = renderBenchmarksDoc({ doc: page, results: new Map() })
    expect(once.startsWith('# Benchmarks\n\nHow to read them.\n\n<!-- bench-figures:start -->\n')).toBe(true)
    expect(once.endsWith('<!-- bench-figures:end -->\n\nAfter the figures.\n')).toBe(true)
    expect(once).not.toContain('old figures')
    const twice = renderBenchmarksDoc({ doc: once, results: new Map([['lighthouseBench', lighthouse]]) })
    expect(renderBenchmarksDoc({ doc: twice, results: new Map() })).toBe(once)
  })

  test('behavior: a failed run is marked as failed', () => {
    const doc = renderBenchmarksDoc({ doc: page, results: new Map([['lighthouseBench', { ...lighthouse, passed: false }]]) })
    expect(doc).toContain('The bench judged this run a failure (it exited non-zero).')
  })

  test('behavior: output holding a code fence cannot close the block early', () => {
    const doc = renderBenchmarksDoc({ doc: page, results: new Map([['lighthouseBench', { ...lighthouse, output: ['a ``` b'] }]]) })
    expect(doc).toContain('````text\na ``` b\n````')
  })

  test('behavior: a page without its markers is refused, naming them', () => {
    expect(() => renderBenchmarksDoc({ doc: '# Benchmarks\n', results: new Map() })).toThrow(`${figuresStart} and ${figuresEnd}`)
  })
})

describe('recordBenchOutput', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  test('behavior: the result file holds every line printed after it started, and reads back as the result of its bench', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-results-'))
    dirs.push(dir)
    const { log, error, warn } = console
    console.log = console.error = console.warn = () => {}
    try {
      const recording = recordBenchOutput('serverBench', dir)
      console.log('concurrency   req/s')
      console.error('two\nlines %d', 3)
      const path = recording.save()
      expect(path).toBe(join(dir, 'serverBench.json'))
    } finally {
      Object.assign(console, { log, error, warn })
    }
    const result = JSON.parse(readFileSync(join(dir, 'serverBench.json'), 'utf8')) as BenchResult
    expect(result.output).toEqual(['concurrency   req/s', 'two', 'lines 3'])
    expect(result.bench).toBe('serverBench')
    expect(result.passed).toBe(true)
    expect(result.machine.cores).toBeGreaterThan(0)
    expect(readBenchResults(dir).get('serverBench')).toEqual(result)
    expect(readBenchResults(dir).has('pageSizeBench')).toBe(false)
  })
})
