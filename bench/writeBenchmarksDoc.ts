import { readFileSync, writeFileSync } from 'node:fs'
import { benchNames, readBenchResults } from './benchResult'
import { renderBenchmarksDoc } from './renderBenchmarksDoc'

/** `npm run bench`'s last step: docs/benchmarks.md's figures, rewritten from bench/results/*.json. */
const path = new URL('../docs/benchmarks.md', import.meta.url).pathname
const results = readBenchResults()
writeFileSync(path, renderBenchmarksDoc({ doc: readFileSync(path, 'utf8'), results }))
console.log(`docs/benchmarks.md: figures of ${results.size} of ${benchNames.length} benches written from bench/results/`)
