import { Agent, request } from 'node:http'

export type LoadResult = { concurrency: number; requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number }

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** Keeps `concurrency` keep-alive requests in flight against one loopback URL for `durationMs`, or
 * until `stop` is aborted. */
export async function loadTest(
  url: string,
  { concurrency, durationMs, stop }: { concurrency: number; durationMs: number; stop?: AbortSignal },
): Promise<LoadResult> {
  const target = new URL(url)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('load tests target loopback only')
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  const until = started + durationMs

  const one = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now()
      const req = request(target, { agent, method: 'GET' }, (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - sent)
          else errors++
          resolve()
        })
      })
      req.on('error', () => {
        errors++
        resolve()
      })
      req.end()
    })

  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until && !stop?.aborted) await one()
    }),
  )
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const round = (n: number) => Math.round(n * 100) / 100
  return {
    concurrency,
    requests: latencies.length,
    seconds: round(seconds),
    rps: Math.round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    errors,
  }
}
