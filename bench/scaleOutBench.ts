import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { parseUnits, type Address, type Hex } from 'viem'
import { invoiceRegistryAbi } from '../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../contracts/artifacts/Stablecoin'
import { devnetEnv } from '../devnet/devnetConfig'
import { devnetClients } from '../devnet/deploy'
import { createPayer, issueInvoice } from '../devnet/seed'
import { startDevnet } from '../devnet/startDevnet'
import { seedMerchantStudio } from '../devnet/seedMerchantAccess'
import { openDatabase } from '../server/store/database'
import { createStudioStore } from '../server/store/studioStore'
import { freePort } from '../test/support/loopback'
import { startCluster } from '../test/support/postgresCluster'
import { startRedis } from '../test/support/redis'
import { startRpcBundlerProcess } from '../test/support/rpcBundlerProcess'
import { api, permitAndPrepare, signUserOp } from '../test/support/server'
import type { WireUserOp } from '../shared/userOpWire'
import { loadTest, type LoadResult } from './loadTest'
import { recordBenchOutput } from './recordBenchOutput'

/**
 * Three server instances, each its own process as in production, on one PostgreSQL, one Redis, one
 * devnet and one external bundler (each instance's local executor would race the others for the
 * same key's nonces). Everything on loopback; this process is the payers, the GET traffic and the
 * judge of what the chain holds afterwards.
 *
 *   npm run bench                                     # 200 payers, 20 racers, 30 in the kill wave
 *   tsx bench/scaleOutBench.ts --payers 50 --racers 10 --kill-wave 15
 */
const { values: flags } = parseArgs({
  options: {
    payers: { type: 'string', default: '200' },
    racers: { type: 'string', default: '20' },
    'kill-wave': { type: 'string', default: '30' },
  },
})
const payerCount = Number(flags.payers)
const racerCount = Number(flags.racers)
const killWaveCount = Number(flags['kill-wave'])

const amount = parseUnits('40', 6)
const funds = parseUnits('100', 6)
const submitWaitMs = 5_000
const failures: string[] = []
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what)
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

function percentiles(samples: number[]) {
  const sorted = samples.toSorted((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
  return `p50 ${Math.round(at(50))} ms  p99 ${Math.round(at(99))} ms  (n=${sorted.length})`
}

type Instance = { url: string; pid: number; kill(signal: NodeJS.Signals): Promise<void>; output: () => string }

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/serve.ts'], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then((r) => r.status === 200, () => false)
    if (ready) break
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`instance did not become ready:\n${output}`)
    await sleep(200)
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      await exited
    },
  }
}

/** Any answer from an instance, counted by status class; a 5xx is a failure of the bench. */
const statuses = new Map<string, number>()
function counted<T extends { status: number; body?: unknown }>(answer: T): T {
  // a 5xx is told apart by its code: which dependency gave out
  const code = answer.status >= 500 ? ` ${(answer.body as { code?: string } | undefined)?.code ?? ''}` : ''
  const key = `${answer.status}${code}`
  statuses.set(key, (statuses.get(key) ?? 0) + 1)
  return answer
}

type Payer = Awaited<ReturnType<typeof createPayer>>
type Timings = { permit: number[]; prepare: number[]; submit: number[] }

/** Each request to an instance picked at random, as a load balancer without affinity would. */
const anyOf = (instances: Instance[]) => instances[Math.floor(Math.random() * instances.length)]!.url

/** permit → prepare → sign, each request timed: the signed operation, or the status that refused it
 * (counted; 0: no answer). */
async function signedOperation(base: string, invoiceId: bigint, payer: Payer, timings: Timings) {
  let answers
  try {
    answers = await permitAndPrepare(base, invoiceId, payer, undefined, { timed: (step, ms) => timings[step].push(ms) })
  } catch (error) {
    // permitAndPrepare throws on a refused permit, naming its status
    const status = Number(/^permit: (\d+)/.exec((error as Error).message)?.[1] ?? 0)
    if (status > 0) counted({ status })
    return { refused: status }
  }
  const { permit, prepared } = answers
  counted(permit)
  counted(prepared)
  if (prepared.status !== 200) return { refused: prepared.status }
  return { userOp: await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash), userOpHash: prepared.body.userOpHash as Hex }
}

/** The submit, timed; status 0 when the instance never answered (killed under it). */
async function submitSigned(base: string, invoiceId: bigint, userOp: WireUserOp, timings: Timings) {
  const started = performance.now()
  const answer = await api(base, `/v1/pay/${invoiceId}`, { userOp }).then(counted, () => ({ status: 0, body: null }))
  timings.submit.push(performance.now() - started)
  return { status: answer.status, body: answer.body, target: base }
}

/** A payer that is answered 5xx tries again, twice at most, as the answers ask ("nothing was lost:
 * submit the same signed operation again"); every 5xx is still counted against the bench. */
async function pay(instances: Instance[], invoiceId: bigint, payer: Payer, timings: Timings) {
  let signed = await signedOperation(anyOf(instances), invoiceId, payer, timings)
  for (let attempt = 1; attempt < 3 && 'refused' in signed && (signed.refused >= 500 || signed.refused === 0); attempt++) {
    signed = await signedOperation(anyOf(instances), invoiceId, payer, timings)
  }
  if ('refused' in signed) return { status: signed.refused, body: null, target: '', stage: 'prepare' }
  let submitted = await submitSigned(anyOf(instances), invoiceId, signed.userOp, timings)
  for (let attempt = 1; attempt < 3 && (submitted.status >= 500 || submitted.status === 0); attempt++) {
    submitted = await submitSigned(anyOf(instances), invoiceId, signed.userOp, timings)
  }
  return { ...submitted, stage: 'submit' }
}

/** A kill-wave payment is prepared before the kill: one refused then is no part of what is measured. */
function signedOf(signed: Awaited<ReturnType<typeof signedOperation>>): { userOp: WireUserOp; userOpHash: Hex } {
  if ('refused' in signed) throw new Error(`a kill-wave payment was refused before its submit: ${signed.refused}`)
  return signed
}

const recording = recordBenchOutput('scaleOutBench')
const overall = performance.now()
console.log(`scale-out bench: 3 instances, ${payerCount} payers, ${racerCount} racers for one invoice, ${killWaveCount} in the SIGKILL wave`)
const devnet = await startDevnet()
const postgres = await startCluster()
const redis = await startRedis()
const bundler = await startRpcBundlerProcess({ rpcUrl: devnet.anvil.rpcUrl, deployment: devnet.deployment })
const instances: Instance[] = []
try {
  const databaseUrl = await postgres.createDatabase()
  const env = devnetEnv(devnet, {
    port: 0,
    overrides: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      BUNDLER_URL: bundler.url,
      PAYMASTER_URL: bundler.url,
      RATE_LIMIT_PER_MINUTE: '100000000',
      // every payer is on loopback: one client to the sponsorship limits (the racers still meet the invoice's)
      SPONSORSHIP_LIMIT_PER_CLIENT: '0',
      SUBMIT_WAIT_MS: String(submitWaitMs),
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_LEASE_MS: '10000',
      LOG_LEVEL: 'warn',
    },
  })
  // one environment for all: each devnetEnv call makes a fresh metadata key
  instances.push(...(await Promise.all([1, 2, 3].map(() => startInstance(env)))))
  // the demo merchant as a studio of the servers (their migrations made the table): only its invoices are sponsored
  const studios = await openDatabase({ url: databaseUrl })
  await seedMerchantStudio({ studios: createStudioStore(studios) }, devnet)
  await studios.close()
  console.log(`devnet, PostgreSQL, Redis, bundler and 3 instances ready in ${elapsed(overall)}`)

  const clients = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId)
  const setup = performance.now()
  const { timestamp } = await clients.public.getBlock()
  const newInvoice = () =>
    issueInvoice(devnet.anvil.rpcUrl, devnet.deployment, devnet.seed.merchant, { amount, dueAt: timestamp + 86_400n, metaHash: `0x${'cd'.repeat(32)}` })
  const invoices: bigint[] = []
  const payers: Payer[] = []
  for (let i = 0; i < payerCount; i++) {
    invoices.push((await newInvoice()).id)
    payers.push(await createPayer(clients, devnet.deployment, funds))
  }
  const contested = (await newInvoice()).id
  const racers: Payer[] = []
  for (let i = 0; i < racerCount; i++) racers.push(await createPayer(clients, devnet.deployment, funds))
  const waveInvoices: bigint[] = []
  const wavePayers: Payer[] = []
  for (let i = 0; i < killWaveCount; i++) {
    waveInvoices.push((await newInvoice()).id)
    wavePayers.push(await createPayer(clients, devnet.deployment, funds))
  }
  console.log(`${payerCount + killWaveCount + 1} invoices issued, ${payerCount + racerCount + killWaveCount} payers funded in ${elapsed(setup)}`)

  // GET traffic at full speed on every instance while the payments run
  const readInvoice = devnet.seed.invoices[0]!.id
  const getsDone = instances.map(() => new AbortController())
  const gets: Promise<LoadResult>[] = instances.map((instance, i) =>
    loadTest(`${instance.url}/v1/pay/${readInvoice}`, { concurrency: 8, durationMs: 3_600_000, stop: getsDone[i]!.signal }),
  )

  const timings: Timings = { permit: [], prepare: [], submit: [] }
  const paying = performance.now()
  const [results, raceResults] = await Promise.all([
    Promise.all(payers.map((payer, i) => pay(instances, invoices[i]!, payer, timings))),
    Promise.all(racers.map((payer) => pay(instances, contested, payer, timings))),
  ])
  console.log(`${payerCount} payments and ${racerCount} racers done in ${elapsed(paying)}`)

  // The kill wave, signed in advance so that the kill falls among the submissions. The bundler
  // holds what it accepts: submissions sit claimed and recorded while they wait for inclusion.
  const signedWave = await Promise.all(wavePayers.map((payer, i) => signedOperation(anyOf(instances), waveInvoices[i]!, payer, timings)))
  await bundler.hold()
  const victim = instances[2]!
  const sends = async () => (await bundler.calls()).eth_sendUserOperation ?? 0
  const sendsBefore = await sends()
  // not timed with the others: these wait on a held bundler
  const waveTimings: Timings = { permit: [], prepare: [], submit: [] }
  const wave = Promise.all(signedWave.map((signed, i) => submitSigned(instances[i % 3]!.url, waveInvoices[i]!, signedOf(signed).userOp, waveTimings)))
  const killDeadline = Date.now() + 120_000
  while ((await sends()) - sendsBefore < Math.ceil(killWaveCount / 2) && Date.now() < killDeadline) await sleep(20)
  // its GET traffic stops first: requests in flight to a killed process fail, and are not the point
  getsDone[2]!.abort()
  await gets[2]
  await victim.kill('SIGKILL')
  instances.splice(2, 1)
  console.log(`SIGKILL to instance 3 (pid ${victim.pid}) once ${(await sends()) - sendsBefore} of ${killWaveCount} wave submissions had reached the bundler`)
  await bundler.release()
  const waveResults = await wave
  for (const done of getsDone) done.abort()
  const getResults = await Promise.all(gets)

  // judge what the chain holds, waiting for the survivors' reconcilers to settle the victim's claims
  const registry = { address: devnet.deployment.registry, abi: invoiceRegistryAbi } as const
  const paid = 2 // InvoiceRegistry's Status.Paid
  const statusOf = async (id: bigint) => (await clients.public.readContract({ ...registry, functionName: 'invoices', args: [id] })).status
  const balanceOf = (vault: Address) =>
    clients.public.readContract({ address: devnet.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [vault] })
  // What the victim left behind: a submission it claimed is recorded with the payer's signature, and
  // the survivors' reconcilers finish it with no help from the payer. Only a payer whose request died
  // before the claim (nothing of it in the database) sends it again, to a survivor.
  const unanswered = waveResults.flatMap((result, i) => (result.status === 0 ? [i] : []))
  const database = await openDatabase({ url: databaseUrl })
  const claimedRows = await database.query<{ user_op_hash: string }>('SELECT user_op_hash FROM payment_submissions WHERE user_op_hash = ANY($1)', [
    unanswered.map((i) => signedOf(signedWave[i]!).userOpHash.toLowerCase()),
  ])
  await database.close()
  const claimedHashes = new Set(claimedRows.map((row) => row.user_op_hash))
  const claimedByVictim = unanswered.filter((i) => claimedHashes.has(signedOf(signedWave[i]!).userOpHash.toLowerCase()))
  const retried = unanswered.filter((i) => !claimedHashes.has(signedOf(signedWave[i]!).userOpHash.toLowerCase()))
  for (const i of retried) counted(await api(instances[i % 2]!.url, `/v1/pay/${waveInvoices[i]}`, { userOp: signedOf(signedWave[i]!).userOp }))

  const allInvoices = [...invoices, ...waveInvoices]
  const settleDeadline = Date.now() + 90_000
  let unpaid: bigint[] = allInvoices
  while (unpaid.length > 0 && Date.now() < settleDeadline) {
    const states = await Promise.all(unpaid.map(async (id) => [id, await statusOf(id)] as const))
    unpaid = states.filter(([, status]) => status !== paid).map(([id]) => id)
    if (unpaid.length > 0) await sleep(500)
  }
  const finalEvents = await clients.public.getContractEvents({ ...registry, eventName: 'InvoicePaid', fromBlock: 0n, strict: true })
  const paidTimes = new Map<bigint, number>()
  for (const event of finalEvents) paidTimes.set(event.args.id, (paidTimes.get(event.args.id) ?? 0) + 1)

  check(unpaid.length === 0, `${unpaid.length} invoices not Paid: ${unpaid.slice(0, 5).join(', ')}`)
  check([...allInvoices, contested].every((id) => paidTimes.get(id) === 1), 'an invoice was paid other than exactly once')
  check(paidTimes.get(contested) === 1, `the contested invoice was paid ${paidTimes.get(contested) ?? 0} times`)
  const balances = await Promise.all([...payers, ...wavePayers, ...racers].map((payer) => balanceOf(payer.vault)))
  const debited = balances.map((balance) => funds - balance)
  check(debited.every((d) => d === 0n || d === amount), 'a payer was debited other than once or never')
  check(debited.slice(0, payerCount + killWaveCount).every((d) => d === amount), 'a payer of a distinct invoice was not debited exactly once')
  check(debited.slice(payerCount + killWaveCount).filter((d) => d === amount).length === 1, 'not exactly one racer was debited')
  const fiveXX = [...statuses].filter(([status]) => Number.parseInt(status) >= 500)
  check(fiveXX.length === 0, `5xx answers: ${JSON.stringify(fiveXX)}`)
  check(getResults.every((r) => r.errors === 0), `GET errors: ${getResults.map((r) => r.errors).join(', ')}`)
  check(results.every((r) => r.status === 200 || r.status === 202), `distinct payments not accepted: ${JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 202).slice(0, 3))}`)

  // the database settles too: the survivors' reconcilers confirm what the victim left submitted
  // (a send it died in the middle of is left for a minute, as a stale claim, before it is checked)
  const samples = async (name: string) => {
    const text = (await Promise.all(instances.map((instance) => fetch(`${instance.url}/metrics`).then((r) => r.text())))).join('\n')
    return [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+)`, 'gm'))].map((m) => ({ labels: m[1] ?? '', value: Number(m[2]) }))
  }
  const unsettledDeadline = Date.now() + 90_000
  let unsettled = Number.NaN
  while (Date.now() < unsettledDeadline) {
    unsettled = Math.max(...(await samples('svc_checkout_unsettled_operations')).map((sample) => sample.value))
    if (unsettled === 0) break
    await sleep(1_000)
  }
  check(unsettled === 0, `${unsettled} operations still unsettled in the database`)
  const resubmissions = new Map<string, number>()
  for (const { labels, value } of await samples('svc_checkout_resubmissions_total')) resubmissions.set(labels, (resubmissions.get(labels) ?? 0) + value)
  console.log('')
  console.log(`under load (the instances, bundler, anvil, PostgreSQL, Redis and this client share ${availableParallelism()} cores):`)
  console.log(`  permit         ${percentiles(timings.permit)}`)
  console.log(`  prepare        ${percentiles(timings.prepare)}`)
  console.log(`  submit         ${percentiles(timings.submit)}  (includes waiting for inclusion, up to ${submitWaitMs} ms)`)
  const seconds = Math.max(...getResults.map((r) => r.seconds))
  const totalGets = getResults.reduce((sum, r) => sum + r.requests, 0)
  console.log(`  GET /v1/pay/:id summed over the instances: ${Math.round(totalGets / seconds)} req/s (${getResults.map((r) => `${r.rps}`).join(' + ')}), p99 ${getResults.map((r) => r.p99).join(' / ')} ms`)
  console.log(`  racers' last answers: ${raceResults.map((r) => `${r.stage} ${r.status}`).toSorted().join(', ')}`)
  console.log(`  answers by status: ${JSON.stringify(Object.fromEntries([...statuses].toSorted()))}`)
  console.log(`kill wave: ${waveResults.filter((r) => r.target === victim.url).length} submissions went to the killed instance, ${unanswered.length} got no answer;`)
  console.log(`  ${claimedByVictim.length} of those had been claimed by it: completed by the survivors with no retry from the payer; ${retried.length} died before the claim and were sent again by their payer`)
  console.log(`  the survivors' reconcilers, checks by outcome: ${JSON.stringify(Object.fromEntries(resubmissions))}; unsettled operations left: ${unsettled}`)
  console.log(`every invoice Paid exactly once: ${unpaid.length === 0 && [...allInvoices, contested].every((id) => paidTimes.get(id) === 1)}; total ${elapsed(overall)}`)
  if (failures.length > 0) {
    console.error(`FAILED:\n  ${failures.join('\n  ')}`)
    process.exitCode = 1
  }
} finally {
  for (const instance of instances) await instance.kill('SIGTERM')
  await bundler.stop()
  await redis.close()
  await postgres.stop()
  await devnet.anvil.stop()
}
// a run that crashed above leaves the last result file as it was
recording.save()
