import { formatUnits, parseUnits } from 'viem'
import { devnetClients } from '../devnet/deploy'
import { createPayer } from '../devnet/seed'
import { startNpmStart } from '../test/support/npmStart'
import { payThroughServer } from '../test/support/server'
import { loadTest } from './loadTest'
import { recordBenchOutput } from './recordBenchOutput'

/**
 * GET /v1/pay/:id throughput and latency on loopback, and permit → Paid through the server. The
 * server runs as `npm start` does, in its own process; this process is only the client.
 */
const recording = recordBenchOutput('serverBench')
const running = await startNpmStart({ RATE_LIMIT_PER_MINUTE: '100000000' })
try {
  const devnet = running.file
  const invoice = devnet.invoices[0]!
  const url = `${devnet.serverUrl}/v1/pay/${invoice.id}`
  await loadTest(url, { concurrency: 8, durationMs: 1_500 }) // warm-up: JIT and the invoice cache
  console.log(`GET /v1/pay/:id at ${devnet.serverUrl} (server and this client share two cores)`)
  console.log('concurrency   req/s  p50 ms  p99 ms  errors')
  for (const concurrency of [1, 10, 50, 100]) {
    const r = await loadTest(url, { concurrency, durationMs: 4_000 })
    console.log(`${String(concurrency).padStart(11)}  ${String(r.rps).padStart(6)}  ${r.p50.toFixed(2).padStart(6)}  ${r.p99.toFixed(2).padStart(6)}  ${r.errors}`)
  }

  const clients = devnetClients(devnet.rpcUrl, devnet.chainId)
  const deployment = { chainId: devnet.chainId, ...devnet.contracts }
  for (const seeded of devnet.invoices.slice(1, 3)) {
    const payer = await createPayer(clients, deployment, parseUnits('5000', 6))
    const started = performance.now()
    const { submit } = await payThroughServer(devnet.serverUrl, seeded.id, payer)
    if (submit.status !== 200) throw new Error(`payment failed: ${JSON.stringify(submit.body)}`)
    console.log(`permit → Paid, ${formatUnits(BigInt(seeded.amount), 6)} USDC from a counterfactual vault: ${Math.round(performance.now() - started)} ms`)
  }
} finally {
  await running.stop()
}
// a run that crashed above leaves the last result file as it was
recording.save()
