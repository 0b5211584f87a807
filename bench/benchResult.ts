import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where each bench writes its result, one JSON file per bench, committed so the docs can cite them. */
export const benchResultsDir = new URL('./results/', import.meta.url).pathname

/** The benches `npm run bench` runs, in its order: the names of their files and of their results. */
export const benchNames = ['pageSizeBench', 'serverBench', 'scaleOutBench', 'lighthouseBench', 'sponsorshipDrainBench', 'merchantBench'] as const
export type BenchName = (typeof benchNames)[number]

/**
 * What one run of a bench printed, and where and when it ran: a figure in the docs is quoted from
 * here, never typed by hand, so it always names the machine and the commit that produced it.
 */
export type BenchResult = {
  bench: BenchName
  /** ISO 8601, when the run finished */
  measuredAt: string
  /** `git describe --always --dirty` of the tree measured, or null outside a checkout */
  commit: string | null
  machine: { cores: number; cpu: string; loadAverage: number[]; node: string }
  /** false when the bench judged the run a failure (it exits non-zero) */
  passed: boolean
  /** every line the bench printed, in order, on stdout and stderr alike */
  output: string[]
}

/** The committed result of each bench; a bench never run yet has none. */
export function readBenchResults(dir = benchResultsDir): Map<BenchName, BenchResult> {
  const results = new Map<BenchName, BenchResult>()
  for (const name of benchNames) {
    let text: string
    try {
      text = readFileSync(join(dir, `${name}.json`), 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw error
    }
    results.set(name, JSON.parse(text) as BenchResult)
  }
  return results
}
