import { createTestClient, formatEther, http, parseEventLogs, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction'
import { parseArgs } from 'node:util'
import { devnetConfig } from '../devnet/devnetConfig'
import { devnetClients, mined } from '../devnet/deploy'
import { createPayer, issueInvoice } from '../devnet/seed'
import { seedMerchantStudio } from '../devnet/seedMerchantAccess'
import { startDevnet } from '../devnet/startDevnet'
import { createServer } from '../server/createServer'
import { silentLogger } from '../server/http/logger'
import { fromWireUserOp, type WireUserOp } from '../shared/userOpWire'
import { api, permitAndPrepare, signUserOp } from '../test/support/server'
import { recordBenchOutput } from './recordBenchOutput'
import { selfBundledSponsorships, type SelfBundled } from './selfBundledSponsorships'

/**
 * The drain of issue 21, finding 1, as an attacker runs it: one 1-unit invoice of their own, N fresh
 * vaults holding 1 unit each, every one prepared for it. What the paymaster's deposit pays is then
 * measured two ways: the attacker as their own bundler (handleOps straight to the EntryPoint, one
 * bundle per operation: one pays, every other reverts in execution and is charged), and everything
 * submitted through the server's own executor. Once with the limits off and a sponsorship as long
 * as its permit (before), once with the defaults (after). Then, with the defaults, the smart-wallet
 * door: a wallet that asks POST /v1/paymaster for every gas field at its ceiling and bundles its own
 * operations, and what one client can take that way in an hour.
 *
 *   npm run bench
 *   tsx bench/sponsorshipDrainBench.ts --vaults 16 --self-bundled 10
 */
const { values: flags } = parseArgs({ options: { vaults: { type: 'string', default: '8' }, 'self-bundled': { type: 'string', default: '5' } } })
const vaultCount = Number(flags.vaults)
const selfBundledCount = Number(flags['self-bundled'])
const percentOver = (charged: bigint, used: bigint) => (used === 0n ? '0' : (Number(((charged - used) * 10_000n) / used) / 100).toFixed(1))
const unit = 1n

type Outcome = { sponsored: number; refused: Record<string, number>; executed: number; reverted: number; gas: bigint; spent: bigint }

const recording = recordBenchOutput('sponsorshipDrainBench')
const started = performance.now()
const devnet = await startDevnet()
const failures: string[] = []
try {
  const rpcUrl = devnet.anvil.rpcUrl
  const clients = devnetClients(rpcUrl, devnet.deployment.chainId)
  const { deployment } = devnet
  const attacker = privateKeyToAccount(generatePrivateKey())
  await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({ address: attacker.address, value: 10n ** 20n })
  const attackerWallet = devnetClients(rpcUrl, deployment.chainId, attacker).wallet
  const deposit = () => clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'balanceOf', args: [deployment.paymaster] })

  /** One invoice, N vaults prepared for it; then `send` each sponsored operation. */
  async function attack(base: string, send: (invoiceId: bigint, signed: WireUserOp) => Promise<{ executed: boolean; reverted: boolean; gas: bigint }>): Promise<Outcome> {
    const { timestamp } = await clients.public.getBlock()
    const invoice = await issueInvoice(rpcUrl, deployment, devnet.seed.merchant, { amount: unit, dueAt: timestamp + 86_400n, metaHash: `0x${'ab'.repeat(32)}` })
    const outcome: Outcome = { sponsored: 0, refused: {}, executed: 0, reverted: 0, gas: 0n, spent: 0n }
    const signed: WireUserOp[] = []
    for (let i = 0; i < vaultCount; i++) {
      const payer = await createPayer(clients, deployment, unit)
      const { prepared } = await permitAndPrepare(base, invoice.id, payer)
      if (prepared.status !== 200) {
        const key = `${prepared.status} ${prepared.body.code}`
        outcome.refused[key] = (outcome.refused[key] ?? 0) + 1
        continue
      }
      outcome.sponsored++
      signed.push(await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash as Hex))
    }
    const before = await deposit()
    for (const op of signed) {
      const result = await send(invoice.id, op)
      if (result.executed) outcome.executed++
      if (result.reverted) outcome.reverted++
      outcome.gas += result.gas
    }
    outcome.spent = before - (await deposit())
    return outcome
  }

  /** The attacker's own bundle: the EntryPoint charges the paymaster whatever the call does. */
  const asOwnBundler = async (_invoiceId: bigint, op: WireUserOp) => {
    const hash = await attackerWallet.writeContract({
      address: deployment.entryPoint,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(fromWireUserOp(op))], attacker.address],
      account: attacker,
      chain: null,
    })
    const receipt = await mined(clients.public, hash)
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    if (!event) return { executed: false, reverted: false, gas: 0n }
    return { executed: event.args.success, reverted: !event.args.success, gas: event.args.actualGasUsed }
  }

  const afterOverrides = {}
  const configurations = [
    {
      name: 'before (no limits, sponsored until the permit)',
      overrides: { SPONSORSHIP_LIMIT_PER_INVOICE: '0', SPONSORSHIP_LIMIT_PER_OWNER: '0', SPONSORSHIP_LIMIT_PER_CLIENT: '0', SPONSORSHIP_WINDOW_SECONDS: '86400' },
    },
    { name: 'after (the defaults: 3 per invoice, 10 per owner, 20 per client, 15 minutes)', overrides: afterOverrides },
  ]
  const selfBundled: SelfBundled[] = []
  const rows: { name: string; path: string; outcome: Outcome }[] = []
  for (const { name, overrides } of configurations) {
    const config = devnetConfig(devnet, { port: 0, dataDir: 'memory://', overrides: { RATE_LIMIT_PER_MINUTE: '100000', RECONCILE_INTERVAL_MS: '0', ...overrides } })
    const server = await createServer(config, { logger: silentLogger })
    // the attacker here is the demo merchant itself, a registered studio: the worst case, since an
    // invoice of anyone else is not sponsored at all
    await seedMerchantStudio(server.stores, devnet)
    try {
      rows.push({ name, path: 'any bundler (the attacker bundles)', outcome: await attack(server.url, asOwnBundler) })
      const throughServer = async (invoiceId: bigint, op: WireUserOp) => {
        const before = await deposit()
        const answer = await api(server.url, `/v1/pay/${invoiceId}`, { userOp: op })
        const charged = before - (await deposit())
        return { executed: answer.body.status === 'confirmed', reverted: answer.body.status !== 'confirmed' && charged > 0n, gas: 0n }
      }
      rows.push({ name, path: "the server's executor", outcome: await attack(server.url, throughServer) })
      if (overrides === afterOverrides) selfBundled.push(...(await selfBundledSponsorships(devnet, { serviceUrl: `${server.url}/v1/paymaster`, count: selfBundledCount, attacker })))
    } finally {
      await server.close()
    }
  }

  console.log(`sponsorship drain: one 1-unit invoice, ${vaultCount} fresh vaults with 1 unit each, every operation sent`)
  for (const { name, path, outcome } of rows) {
    const refused = Object.entries(outcome.refused).map(([answer, n]) => `${n} × ${answer}`).join(', ') || 'none'
    console.log(`${name}, through ${path}:`)
    console.log(`  sponsored ${outcome.sponsored} of ${vaultCount} (refused: ${refused}); executed ${outcome.executed}, reverted and charged ${outcome.reverted}`)
    console.log(`  paymaster deposit spent on the invoice: ${formatEther(outcome.spent)} ETH${outcome.gas > 0n ? ` (${outcome.gas} gas)` : ''}`)
  }
  const [beforeAny, beforeServer, afterAny, afterServer] = rows.map((row) => row.outcome)
  if (beforeAny && afterAny && beforeAny.sponsored > 0) {
    const perOp = beforeAny.spent / BigInt(beforeAny.sponsored)
    console.log(`most the paymaster pays per invoice: before ${vaultCount} operations (grows with N: ${formatEther(beforeAny.spent)} ETH here), after ${afterAny.sponsored} whatever N (${formatEther(afterAny.spent)} ETH; about ${formatEther(perOp)} ETH per operation)`)
  }
  // the smart-wallet door (POST /v1/paymaster): what a wallet that bundles its own operations keeps
  const sent = selfBundled.filter((one) => !one.refused)
  const sum = (pick: (one: SelfBundled) => bigint) => sent.reduce((total, one) => total + pick(one), 0n)
  const defaults = devnetConfig(devnet, { port: 0, dataDir: 'memory://' })
  const paymasterPerMinute = defaults.PAYMASTER_RATE_LIMIT_PER_MINUTE ?? Math.max(1, Math.floor(defaults.RATE_LIMIT_PER_MINUTE / 5))
  // one pm_getPaymasterData a sponsorship (an attacker computes the ceilings itself); each is paid, so
  // none holds a sponsorship slot for long: the rate limit is what bounds a client
  const perHour = BigInt(paymasterPerMinute * 60)
  if (sent.length > 0) {
    const kept = sum((one) => one.charged - one.bundleCost)
    const extraGas = sum((one) => one.chargedGas - one.bundleGas)
    console.log(`self-bundled through the paymaster service, every gas field at its ceiling and the highest tip allowed, ${sent.length} payments:`)
    console.log(`  the paymaster was charged for ${sum((one) => one.chargedGas)} gas, the bundles used ${sum((one) => one.bundleGas)}: ${percentOver(sum((one) => one.chargedGas), sum((one) => one.bundleGas))} % more (the stated margin: at most 25 %, the payment's own refunds included)`)
    console.log(`  the attacker kept ${formatEther(kept / BigInt(sent.length))} ETH a payment at this chain's fees: ${extraGas / BigInt(sent.length)} gas a payment over its bundle's, and the tip (twice the node's suggestion) on all of it`)
    console.log(`  most one client can take in an hour: ${perHour} sponsorships (the paymaster service's ${paymasterPerMinute} requests a minute): ${(extraGas / BigInt(sent.length)) * perHour} gas and the tips, ${formatEther((kept / BigInt(sent.length)) * perHour)} ETH at this chain's fees; each one a real payment of an invoice of a registered studio`)
  }
  const check = (ok: boolean, what: string) => ok || failures.push(what)
  check(sent.length === selfBundledCount, `a self-bundled sponsorship was refused: ${selfBundled.map((one) => one.refused).filter(Boolean).join(', ')}`)
  for (const one of sent) console.log(`    one: charged ${one.chargedGas} gas for a bundle of ${one.bundleGas}`)
  check(sent.every((one) => one.chargedGas * 100n <= one.bundleGas * 125n), 'a self-bundler was charged more than 25 % over its bundle')
  check(beforeAny?.sponsored === vaultCount, 'before: not every vault was sponsored')
  check(afterAny?.sponsored === Math.min(3, vaultCount) && afterServer?.sponsored === Math.min(3, vaultCount), 'after: not exactly three sponsored')
  check([beforeAny, beforeServer, afterAny, afterServer].every((o) => o?.executed === 1), 'an invoice was not paid exactly once')
  check(beforeServer?.reverted === 0 && afterServer?.reverted === 0, "the server's executor sent an operation that reverted")
  check((afterAny?.spent ?? 0n) < (beforeAny?.spent ?? 0n), 'the limits did not lower what the paymaster pays')
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`)
  if (failures.length > 0) {
    console.error(`FAILED:\n  ${failures.join('\n  ')}`)
    process.exitCode = 1
  }
} finally {
  await devnet.anvil.stop()
  recording.save()
}
