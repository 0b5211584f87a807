import { benchNames, type BenchName, type BenchResult } from './benchResult'

export const figuresStart = '<!-- bench-figures:start -->'
export const figuresEnd = '<!-- bench-figures:end -->'

const titles: Record<BenchName, { title: string; command: string }> = {
  pageSizeBench: { title: 'What the page and the loader weigh', command: '`npm run bench:size` (`bench/pageSizeBench.ts`)' },
  serverBench: { title: 'One server: `GET /v1/pay/:id` and permit → Paid', command: '`bench/serverBench.ts`' },
  scaleOutBench: { title: 'Three instances on one PostgreSQL and one Redis', command: '`bench/scaleOutBench.ts`' },
  lighthouseBench: { title: 'Lighthouse, mobile preset', command: '`bench/lighthouseBench.ts`' },
  sponsorshipDrainBench: { title: 'What an attacker can make the paymaster pay per invoice', command: '`bench/sponsorshipDrainBench.ts`' },
  merchantBench: { title: "The merchant's API: issue, list, detail, cancel", command: '`bench/merchantBench.ts`' },
}

export type RenderBenchmarksDocParameters = {
  /** the page as it is, holding the two marker comments */
  doc: string
  /** each bench's committed result; a bench without one is shown as not measured */
  results: ReadonlyMap<BenchName, BenchResult>
}

/**
 * The page with everything between its figure markers replaced by the benches' results, quoted as
 * they printed them. Text outside the markers is the writer's and is kept as it is.
 */
export function renderBenchmarksDoc({ doc, results }: RenderBenchmarksDocParameters): string {
  const start = doc.indexOf(figuresStart)
  const end = doc.indexOf(figuresEnd)
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the benchmarks page needs the lines ${figuresStart} and ${figuresEnd}, in that order, around its figures`)
  }
  const sections = benchNames.map((name) => section(name, results.get(name)))
  const generated = [
    figuresStart,
    '<!-- written by bench/writeBenchmarksDoc.ts from bench/results/*.json at the end of `npm run bench`: edit those, not this -->',
    '',
    ...sections.flatMap((lines) => [...lines, '']),
    figuresEnd,
  ].join('\n')
  return doc.slice(0, start) + generated + doc.slice(end + figuresEnd.length)
}

function section(name: BenchName, result: BenchResult | undefined): string[] {
  const { title, command } = titles[name]
  const heading = `### ${title}`
  if (!result) return [heading, '', `${command}: not measured yet: run \`npm run bench\`.`]
  const { machine } = result
  const when = result.measuredAt.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC')
  const verdict = result.passed ? '' : ' The bench judged this run a failure (it exited non-zero).'
  const load = machine.loadAverage.map((load) => load.toFixed(2)).join(' / ')
  return [
    heading,
    '',
    `${command}, measured ${when}${result.commit ? ` at \`${result.commit}\`` : ''} on ${machine.cores} cores (${machine.cpu}), load average ${load} at the end, Node ${machine.node}.${verdict}`,
    '',
    ...fenced(result.output),
  ]
}

/** A code block that no line of the output can close early. */
function fenced(lines: string[]): string[] {
  const longest = Math.max(2, ...lines.map((line) => Math.max(0, ...[...line.matchAll(/`+/g)].map((run) => run[0].length))))
  const fence = '`'.repeat(longest + 1)
  // trailing blank lines are the bench's spacing at the end, not output
  const trimmed = lines.slice(0, lines.findLastIndex((line) => line.trim() !== '') + 1)
  return [`${fence}text`, ...trimmed, fence]
}
