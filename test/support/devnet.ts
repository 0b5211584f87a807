import { createTestClient, http, parseSignature, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, inject } from 'vitest'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients } from '../../devnet/deploy'
import { cancelInvoice, createPayer, issueInvoice, mintTo } from '../../devnet/seed'
import { startDevnet, type Devnet, type ReachableDevnet } from '../../devnet/startDevnet'
import { permitTypedData } from '../../shared/permit'
import type { Deployment } from '../../shared/deployment'

type DevnetActionsDependencies = ReachableDevnet & { clients: ReturnType<typeof devnetClients>; test: ReturnType<typeof createTestClient> }

/** What tests on a devnet keep doing: read a balance, issue or cancel an invoice, make another payer. */
function devnetActions(context: DevnetActionsDependencies) {
  return {
    balanceOf: (address: Address) =>
      context.clients.public.readContract({ address: context.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] }),
    /** An Issued invoice from the demo merchant, due in a day. */
    async newInvoice(amount: bigint, metaHash: Hex = `0x${'cd'.repeat(32)}`) {
      const { timestamp } = await context.clients.public.getBlock()
      return issueInvoice(context.anvil.rpcUrl, context.deployment, context.seed.merchant, { amount, dueAt: timestamp + 86_400n, metaHash })
    },
    /** The demo merchant cancels an Issued invoice through its vault, as its dashboard would. */
    async cancelInvoice(id: bigint) {
      await cancelInvoice(context.anvil.rpcUrl, context.deployment, context.seed.merchant, id)
    },
    /** A payer whose vault holds `funds` and is not deployed yet; its own account holds `accountFunds`
     * of the token and no ETH. */
    async newPayer(funds: bigint, accountFunds = 0n) {
      const payer = await createPayer(context.clients, context.deployment, funds)
      if (accountFunds > 0n) await mintTo(context.clients, context.deployment, payer.owner, accountFunds)
      return payer
    },
  }
}

/** JSON with bigints (invoice ids and amounts) kept as bigints. */
const bigintReplacer = (_: string, value: unknown) => (typeof value === 'bigint' ? { bigint: value.toString() } : value)
const bigintReviver = (_: string, value: any) => (value && typeof value === 'object' && typeof value.bigint === 'string' ? BigInt(value.bigint) : value)

/** This worker's devnet: the one an earlier test file on the worker started, else a new one that
 * outlives this file (the `node` project's teardown stops it; see workerDevnets.ts). */
async function workerDevnet(slotsDir: string): Promise<ReachableDevnet> {
  const slot = join(slotsDir, `slot-${process.env.VITEST_POOL_ID ?? '1'}`)
  if (existsSync(`${slot}.json`)) return JSON.parse(readFileSync(`${slot}.json`, 'utf8'), bigintReviver) as ReachableDevnet
  const { anvil, ...devnet } = await startDevnet({ logFile: `${slot}.log` })
  const shared: ReachableDevnet = { ...devnet, anvil: { rpcUrl: anvil.rpcUrl, port: anvil.port, pid: anvil.pid } }
  writeFileSync(`${slot}.json`, JSON.stringify(shared, bigintReplacer))
  return shared
}

/**
 * A devnet with everything deployed and seeded, for one test file. Under the `node` project it is
 * the worker's devnet, taken at a snapshot and reverted to it after the file (a fresh chain for each
 * file at the cost of one); elsewhere a node of the file's own, stopped after it.
 */
export function useDevnet() {
  const context = {} as DevnetActionsDependencies & ReturnType<typeof devnetActions>
  Object.assign(context, devnetActions(context))
  let release: () => Promise<unknown> = async () => {}
  beforeAll(async () => {
    const slotsDir = inject('devnetSlotsDir')
    const devnet = slotsDir ? await workerDevnet(slotsDir) : await startDevnet()
    const test = createTestClient({ mode: 'anvil', transport: http(devnet.anvil.rpcUrl) })
    if (slotsDir) {
      const snapshot = await test.snapshot()
      release = async () => {
        await test.revert({ id: snapshot })
        // what a revert leaves as it was
        await test.setAutomine(true)
      }
    } else {
      release = () => (devnet as Devnet).anvil.stop()
    }
    Object.assign(context, devnet, { clients: devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId), test })
  })
  afterAll(() => release())
  return context
}

/** What a payer's wallet does for /permit: the owner signs the token's EIP-2612 typed data for its vault. */
export async function signPermit(
  client: ReturnType<typeof devnetClients>['public'],
  deployment: Deployment,
  { ownerPrivateKey, vault, value, deadline, spender = deployment.registry }: {
    ownerPrivateKey: Hex
    vault: Address
    value: bigint
    deadline: bigint
    spender?: Address
  },
) {
  const nonce = await client.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'nonces', args: [vault] })
  const typedData = permitTypedData(
    { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
    { owner: vault, spender, value, nonce, deadline },
  )
  const signature = await privateKeyToAccount(ownerPrivateKey).signTypedData(typedData)
  const { r, s, yParity } = parseSignature(signature)
  return { deadline, v: yParity + 27, r, s, signature }
}

/** What a payer's wallet does to pay from its own account: the owner signs a permit letting its vault
 * take `value` from the owner's account. */
export function signFundingPermit(
  client: ReturnType<typeof devnetClients>['public'],
  deployment: Deployment,
  { ownerPrivateKey, owner, vault, value, deadline }: { ownerPrivateKey: Hex; owner: Address; vault: Address; value: bigint; deadline: bigint },
) {
  return signPermit(client, deployment, { ownerPrivateKey, vault: owner, spender: vault, value, deadline })
}
