import { randomUUID } from 'node:crypto'
import { signRequest } from '../cli/merchant/signRequest'
import { startNpmStart } from '../test/support/npmStart'
import { recordBenchOutput } from './recordBenchOutput'

/**
 * The merchant's API as a backend meets it, on the devnet `npm start` runs, in its own process: a
 * customer created, invoices issued by the server signer (issue → Issued, on-chain and finalized),
 * the invoice list read, one invoice canceled. Each request is signed as a merchant's backend signs
 * (HMAC, devnet.json's key), one after another: the latency a merchant waits, not a throughput.
 */

const issues = 30
const listReads = 200

type Signed = { status: number; body: any }

function client(serverUrl: string, key: { keyId: string; secret: string }) {
  return async (method: 'GET' | 'POST', path: string, { body, query = '', headers = {} }: { body?: unknown; query?: string; headers?: Record<string, string> } = {}): Promise<Signed> => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const signed = await signRequest({ ...key, method, path, query, ...(text === undefined ? {} : { body: text }) })
    const response = await fetch(`${serverUrl}${path}${query ? `?${query}` : ''}`, {
      method,
      headers: { ...signed, ...headers, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(text === undefined ? {} : { body: text }),
    })
    return { status: response.status, body: await response.json() }
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const figures = (durations: number[]) => {
  const sorted = [...durations].sort((a, b) => a - b)
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (n=${sorted.length})`
}

async function timed(run: () => Promise<Signed>, expected: number, durations: number[]): Promise<Signed> {
  const started = performance.now()
  const answer = await run()
  durations.push(performance.now() - started)
  if (answer.status !== expected) throw new Error(`expected ${expected}, got ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer
}

async function merchantBench() {
  // the per-client limits are lifted, as serverBench does: one client here measures latency, not the limits
  const running = await startNpmStart({ RATE_LIMIT_PER_MINUTE: '100000000' })
  try {
    const { serverUrl, merchant } = running.file
    const call = client(serverUrl, merchant.apiKey)
    const created = await call('POST', '/v1/customers', {
      body: { type: 'entity', legalName: `Bench Customer ${randomUUID().slice(0, 8)} Ltd`, email: 'ap@bench.example', address: { street: '1 Dock Road', city: 'Leeds', postal: 'LS1 4AP', country: 'GB' }, registrationNumber: '07654321' },
    })
    if (created.status !== 201) throw new Error(`customer: ${JSON.stringify(created.body)}`)
    const customerId = created.body.data.id as string

    const issued: number[] = []
    const ids: string[] = []
    for (let i = 0; i < issues; i++) {
      const answer = await timed(
        () => call('POST', '/v1/invoices/issue', { body: { customerId, amount: String(1_000_000 + i), dueDays: 14, description: `Bench invoice ${i + 1}` }, headers: { 'idempotency-key': randomUUID() } }),
        200,
        issued,
      )
      ids.push(answer.body.id)
    }
    console.log(`POST /v1/invoices/issue, issue → Issued (server signer, sponsored, metadata and share link written): ${figures(issued)}`)

    for (const mode of ['eventual', 'hybrid', 'strong'] as const) {
      const listed: number[] = []
      for (let i = 0; i < (mode === 'strong' ? 50 : listReads); i++) await timed(() => call('GET', '/v1/invoices', { query: `mode=${mode}&limit=25` }), 200, listed)
      console.log(`GET /v1/invoices?mode=${mode}&limit=25 (${ids.length + running.file.invoices.length} invoices of the studio): ${figures(listed)}`)
    }
    const detail: number[] = []
    for (const id of ids) await timed(() => call('GET', `/v1/invoices/${id}`), 200, detail)
    console.log(`GET /v1/invoices/:id (hybrid): ${figures(detail)}`)

    const canceled: number[] = []
    for (const id of ids.slice(0, 10)) await timed(() => call('POST', `/v1/invoices/${id}/cancel/submit`, { body: {} }), 200, canceled)
    console.log(`POST /v1/invoices/:id/cancel/submit, to Canceled on-chain: ${figures(canceled)}`)
  } finally {
    await running.stop()
  }
}

const recording = recordBenchOutput('merchantBench')
await merchantBench()
// a run that crashed above leaves the last result file as it was
recording.save()
