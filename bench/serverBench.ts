import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { formatUnits, parseUnits } from 'viem'
import { devnetClients } from '../devnet/deploy'
import { createPayer } from '../devnet/seed'
import { startNpmStart } from '../test/support/npmStart'
import { payThroughServer } from '../test/support/server'
import type { FixedAnswer } from './bareHono'
import { loadTest, type LoadResult } from './loadTest'
import { recordBenchOutput } from './recordBenchOutput'

/**
 * The server's read routes against bare Hono answering the same bytes, in the same run; GET
 * /v1/pay/:id throughput and latency on loopback; permit → Paid through the server. The server runs
 * as `npm start` does, in its own process, and bare Hono in another; this process is only the client.
 */

/** What a browser's share-link view and the widget's first read cost, against the floor: in turns
 * of one second each, server then bare Hono, so that a load other processes put on the shared cores
 * for a while weighs on both alike. */
const comparedConcurrency = 10
const comparedTurns = 4
const turnMs = 1_000

/** Turns of one load test taken as one: every request of every turn. */
function together(turns: LoadResult[]): LoadResult {
  const requests = turns.reduce((sum, turn) => sum + turn.requests, 0)
  const seconds = turns.reduce((sum, turn) => sum + turn.seconds, 0)
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  return {
    concurrency: turns[0]!.concurrency,
    requests,
    seconds: Math.round(seconds * 100) / 100,
    rps: Math.round(requests / seconds),
    p50: median(turns.map((turn) => turn.p50)),
    // the worst turn's: a percentile of the whole cannot be had from the turns' own
    p99: Math.max(...turns.map((turn) => turn.p99)),
    errors: turns.reduce((sum, turn) => sum + turn.errors, 0),
  }
}

/** Headers the Node server writes itself, per connection or per answer. */
const perConnection = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

/** One answer as the load test receives it: no Accept-Encoding, as loadTest sends none. */
function answerOf(url: string): Promise<FixedAnswer> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const headers = Object.fromEntries(
          Object.entries(res.headers).flatMap(([name, value]) => (perConnection.has(name) || value === undefined ? [] : [[name, String(value)]])),
        )
        resolve({ path: new URL(url).pathname, status: res.statusCode!, headers, bodyBase64: Buffer.concat(chunks).toString('base64') })
      })
    })
      .on('error', reject)
      .end()
  })
}

async function startBareHono(answers: FixedAnswer[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bareHono.ts'], { stdio: ['pipe', 'pipe', 'inherit'] })
  child.stdin.end(JSON.stringify(answers))
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString())
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`bare Hono exited with ${code}`)))
  })
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  }
}

type Compared = { route: string; bytes: number; status: number; server: LoadResult; bareHono: LoadResult; ratio: number }

/** The run as data, for whatever keeps it (a results file). */
export type ServerBenchResult = { compared: Compared[]; byConcurrency: LoadResult[]; payments: { invoiceId: string; amount: string; ms: number }[] }

async function serverBench(): Promise<ServerBenchResult> {
  const running = await startNpmStart({ RATE_LIMIT_PER_MINUTE: '100000000' })
  try {
    const devnet = running.file
    const invoice = devnet.invoices[0]!
    const share = new URL(invoice.shareLink)
    const routes = [
      { route: 'GET /pay/:id?token=', url: `${devnet.serverUrl}${share.pathname}${share.search}` },
      { route: 'GET /v1/pay/:id', url: `${devnet.serverUrl}/v1/pay/${invoice.id}` },
    ]
    const answers = await Promise.all(routes.map(({ url }) => answerOf(url)))
    // the load test counts 200s only: anything else would compare an error page
    for (const [index, answer] of answers.entries()) if (answer.status !== 200) throw new Error(`${routes[index]!.route} answered ${answer.status}`)
    const bare = await startBareHono(answers)
    const compared: Compared[] = []
    try {
      for (const [index, { route, url }] of routes.entries()) {
        const bareUrl = bare.origin + new URL(url).pathname + new URL(url).search
        const load = { concurrency: comparedConcurrency, durationMs: turnMs }
        // warm-up: JIT, the invoice cache, the page's files
        await loadTest(url, load)
        await loadTest(bareUrl, load)
        const turns: { server: LoadResult[]; bareHono: LoadResult[] } = { server: [], bareHono: [] }
        for (let turn = 0; turn < comparedTurns; turn++) {
          turns.server.push(await loadTest(url, load))
          turns.bareHono.push(await loadTest(bareUrl, load))
        }
        const [server, bareHono] = [together(turns.server), together(turns.bareHono)]
        const answer = answers[index]!
        compared.push({ route, bytes: Buffer.from(answer.bodyBase64, 'base64').length, status: answer.status, server, bareHono, ratio: Math.round((server.rps / bareHono.rps) * 1000) / 1000 })
      }
    } finally {
      await bare.stop()
    }
    console.log(
      `The server against bare Hono answering the same bytes, concurrency ${comparedConcurrency}, ${comparedTurns} turns of ${turnMs / 1000} s each, in turn (server, bare Hono and this client share two cores)`,
    )
    console.log('route                  bytes  server req/s  bare Hono req/s  ratio  server p50/p99 ms')
    for (const { route, bytes, server, bareHono, ratio } of compared) {
      console.log(
        `${route.padEnd(21)} ${String(bytes).padStart(6)}  ${String(server.rps).padStart(12)}  ${String(bareHono.rps).padStart(15)}  ${`${(ratio * 100).toFixed(0)} %`.padStart(5)}  ${server.p50.toFixed(2)}/${server.p99.toFixed(2)}`,
      )
    }

    const url = `${devnet.serverUrl}/v1/pay/${invoice.id}`
    console.log(`GET /v1/pay/:id at ${devnet.serverUrl} by concurrency`)
    console.log('concurrency   req/s  p50 ms  p99 ms  errors')
    const byConcurrency: LoadResult[] = []
    for (const concurrency of [1, 10, 50, 100]) {
      const r = await loadTest(url, { concurrency, durationMs: 4_000 })
      byConcurrency.push(r)
      console.log(`${String(concurrency).padStart(11)}  ${String(r.rps).padStart(6)}  ${r.p50.toFixed(2).padStart(6)}  ${r.p99.toFixed(2).padStart(6)}  ${r.errors}`)
    }

    const clients = devnetClients(devnet.rpcUrl, devnet.chainId)
    const deployment = { chainId: devnet.chainId, ...devnet.contracts }
    const payments: { invoiceId: string; amount: string; ms: number }[] = []
    for (const seeded of devnet.invoices.slice(1, 3)) {
      const payer = await createPayer(clients, deployment, parseUnits('5000', 6))
      const started = performance.now()
      const { submit } = await payThroughServer(devnet.serverUrl, seeded.id, payer)
      if (submit.status !== 200) throw new Error(`payment failed: ${JSON.stringify(submit.body)}`)
      const ms = Math.round(performance.now() - started)
      payments.push({ invoiceId: seeded.id, amount: formatUnits(BigInt(seeded.amount), 6), ms })
      console.log(`permit → Paid, ${formatUnits(BigInt(seeded.amount), 6)} USDC from a counterfactual vault: ${ms} ms`)
    }

    return { compared, byConcurrency, payments }
  } finally {
    await running.stop()
  }
}

const recording = recordBenchOutput('serverBench')
export const result = await serverBench()
// a run that crashed above leaves the last result file as it was
recording.save()
