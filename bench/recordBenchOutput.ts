import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { format } from 'node:util'
import { benchResultsDir, type BenchName, type BenchResult } from './benchResult'

export type RecordBenchOutputReturnType = {
  /** Writes bench/results/<name>.json with everything printed so far; returns its path. */
  save(): string
}

/**
 * Starts keeping every line the bench prints (console.log and console.error still print as before),
 * so that its result file holds exactly what the person running it saw.
 */
export function recordBenchOutput(bench: BenchName, dir = benchResultsDir): RecordBenchOutputReturnType {
  const output: string[] = []
  for (const method of ['log', 'error', 'warn'] as const) {
    const print = console[method].bind(console)
    console[method] = (...args: unknown[]) => {
      output.push(...format(...args).split('\n'))
      print(...args)
    }
  }
  return {
    save() {
      const result: BenchResult = {
        bench,
        measuredAt: new Date().toISOString(),
        commit: commitMeasured(),
        machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', loadAverage: loadavg().map((load) => Math.round(load * 100) / 100), node: process.version },
        passed: (process.exitCode ?? 0) === 0,
        output,
      }
      mkdirSync(dir, { recursive: true })
      const path = join(dir, `${bench}.json`)
      writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`)
      return path
    },
  }
}

function commitMeasured(): string | null {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}
