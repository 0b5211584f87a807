import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { startCheckoutDevnet, type CheckoutDevnet } from '../../devnet/startCheckoutDevnet'
import { jsonLogger } from '../../server/http/logger'
import { workerCluster } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where each worker of the `built` project notes the devnet it shares among its browser test files. */
    checkoutSlotsDir: string
  }
}

export type WorkerCheckout = CheckoutDevnet & {
  /** The server's request log so far, one JSON line per request, as `LOG_REQUESTS=true` prints it. */
  output(): string
}

let running: Promise<WorkerCheckout> | undefined

/**
 * What `npm start` runs, started once per test worker by the first browser test file and shared by
 * the next ones on that worker (files on one worker run one after another); each file pays its own
 * demo set (`newDemoSet`), so none sees what another paid. The `built` project's teardown stops the
 * chain (test/support/buildPage.ts); the server goes with the worker.
 */
export function workerCheckout(): Promise<WorkerCheckout> {
  running ??= start()
  return running
}

async function start(): Promise<WorkerCheckout> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-worker-checkout-'))
  let output = ''
  const slots = inject('checkoutSlotsDir')
  // on a database of the worker's PostgreSQL, as `DATABASE_URL=… npm start` stores: PGlite runs every
  // query in WebAssembly, a sixth of these workers' CPU. PGlite, npm start's default, is proven by
  // start.test.ts (the real `npm start`) and by the store tests, which run on both.
  const databaseUrl = await (await workerCluster(slots)).createDatabase()
  // the registry's follower and the webhook deliveries pass every 500 ms rather than npm start's 2 s:
  // an invoice's list row, the shop's paid order and a merchant's receiver follow the chain within a
  // pass, and a test waits for each as a person would. Not faster: each pass costs the worker about
  // 5 ms of CPU (an idle worker measured 31 ms of CPU a second at 200 ms, 15 at 500, 8 at 2 s)
  const serverSettings = { WEBHOOK_INTERVAL_MS: '500' }
  const checkout = await startCheckoutDevnet({ dir, rpcPort: 0, port: 0, storefrontPort: 0, databaseUrl, serverSettings, logger: jsonLogger((line) => (output += line)) })
  writeFileSync(join(slots, `worker-${process.pid}.json`), JSON.stringify({ anvilPid: checkout.anvilPid, dir }))
  return Object.assign(checkout, { output: () => output })
}
