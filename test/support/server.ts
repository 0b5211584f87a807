import { getAddress, parseSignature, zeroAddress, zeroHash, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll } from 'vitest'
import { createServer, type RunningServer } from '../../server/createServer'
import { devnetConfig } from '../../devnet/devnetConfig'
import { seedMetadata, type SeededShareLink } from '../../devnet/seedMetadata'
import { seedMerchantStudio } from '../../devnet/seedMerchantAccess'
import { silentLogger, type Logger } from '../../server/http/logger'
import type { Config } from '../../server/config'
import type { WebhookSchedule } from '../../server/webhooks/deliverWebhooks'
import type { WireUserOp } from '../../shared/userOpWire'
import { paymentMessage, paymentTypedData, type PaymentMessage } from '../../shared/paymentMessage'
import devnetDeployment from '../../shared/devnet.deployment.json'
import { payCallOf } from '../../server/payments/carriedPermits'
import { useDevnet } from './devnet'
import { useDatabases } from './postgres'

export type UseServerParameters = {
  now?: () => number
  overrides?: Record<string, string>
  logger?: Logger
  /** The built page the server serves at /pay/:id (default: the build in dist/). */
  payPageDir?: string
  /** Runs once the devnet is up, before the server starts: returns more configuration. */
  beforeServer?: (devnet: ReturnType<typeof useDevnet>) => Promise<Record<string, string>>
  /** A shorter webhook retry schedule than production's. */
  webhookSchedule?: Partial<WebhookSchedule>
}

/**
 * A devnet plus the companion server on 127.0.0.1, for one test file, on a new database of the
 * worker's PostgreSQL, as production runs it (it survives `restart()`). The embedded PGlite stays
 * proven where it is the default: the store tests run on both, `npm start`'s own test, the
 * command-line tools and `npm run serve`. A new PostgreSQL database costs a few milliseconds; a new
 * PGlite about half a CPU-second, and its queries run in WebAssembly. The database is a copy of the
 * worker's migrated template (test/support/postgres.ts), so the server's migration on start finds
 * nothing to do.
 */
export function useServer(options: UseServerParameters = {}) {
  // first, so that its afterAll drops the database after the server below has closed it
  const databases = useDatabases()
  const devnet = useDevnet()
  const context = { devnet } as {
    devnet: typeof devnet
    server: RunningServer
    config: Config
    shareLinks: SeededShareLink[]
    restart(): Promise<void>
  }
  const start = async () => {
    context.server = await createServer(context.config, {
      logger: options.logger ?? silentLogger,
      ...(options.now ? { now: options.now } : {}),
      ...(options.payPageDir ? { payPageDir: options.payPageDir } : {}),
      ...(options.webhookSchedule ? { webhookSchedule: options.webhookSchedule } : {}),
    })
  }
  beforeAll(async () => {
    const extra = options.beforeServer ? await options.beforeServer(devnet) : {}
    context.config = devnetConfig(devnet, {
      port: 0,
      overrides: { RATE_LIMIT_PER_MINUTE: '100000', DATABASE_URL: await databases.migratedPostgresUrl(), ...options.overrides, ...extra },
    })
    await start()
    await seedMerchantStudio(context.server.stores, devnet)
    context.shareLinks = await seedMetadata(context.server.stores, devnet, context.server.url, devnet.seed.invoices)
  })
  afterAll(async () => {
    await context.server?.close()
  })
  context.restart = async () => {
    await context.server.close()
    context.config = { ...context.config, PORT: context.server.port }
    await start()
  }
  return context
}

export async function api(base: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await response.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, body: json, headers: response.headers }
}

type Payer = { vault: Address; owner: Address; ownerPrivateKey: Hex }

/** A prepare request's `funding`, as a client sends it. */
export type FundingBody = { from: Address; amount: string; permit: { deadline: string; v: number; r: Hex; s: Hex } }

/** The payer's side of the flow, as a wallet does it: sign the permit, then the operation's hash.
 * `funding` pays part from the owner's account; `timed` hears how long each request took (the load bench). */
export async function permitAndPrepare(
  base: string,
  invoiceId: bigint | string,
  payer: Payer,
  permitDeadline?: number | string,
  { funding, timed }: { funding?: FundingBody; timed?: (step: 'permit' | 'prepare', ms: number) => void } = {},
) {
  const owner = privateKeyToAccount(payer.ownerPrivateKey)
  let started = performance.now()
  const permit = await api(base, `/v1/pay/${invoiceId}/permit`, { payerAddress: payer.vault, ...(permitDeadline ? { permitDeadline } : {}) })
  timed?.('permit', performance.now() - started)
  if (permit.status !== 200) throw new Error(`permit: ${permit.status} ${JSON.stringify(permit.body)}`)
  const { domain, types, message } = permit.body.permitToSign
  const signature = await owner.signTypedData({
    domain,
    types,
    primaryType: 'Permit',
    message: { ...message, value: BigInt(message.value), nonce: BigInt(message.nonce), deadline: BigInt(message.deadline) },
  })
  const { r, s, yParity } = parseSignature(signature)
  const permitSignature = { deadline: message.deadline as string, v: yParity + 27, r, s }
  started = performance.now()
  const prepared = await api(base, `/v1/pay/${invoiceId}/prepare`, { payerAddress: payer.vault, ownerAddress: payer.owner, permit: permitSignature, ...(funding ? { funding } : {}) })
  timed?.('prepare', performance.now() - started)
  return { permit, permitSignature, prepared }
}

/** What the payer's wallet signs for an operation: the typed Payment message its callData names
 * (eth_signTypedData_v4), with the owner's key. */
export async function signUserOp(payer: Payer, userOp: WireUserOp, userOpHash: Hex, chainId = devnetDeployment.chainId): Promise<WireUserOp> {
  const call = payCallOf(userOp.callData)
  const vault = getAddress(userOp.sender)
  // an operation that is no payment names nothing to sign: tests send one to see it refused before
  // its signature is read, so any well-formed signature will do
  const message: PaymentMessage = call
    ? paymentMessage(call, vault, userOpHash)
    : { registry: zeroAddress, invoice: 0n, invoiceNumber: 0n, merchant: zeroAddress, token: zeroAddress, amount: 0n, feeBps: 0, fromWallet: 0n, vault, validUntil: 0n, operation: zeroHash }
  const signature = await privateKeyToAccount(payer.ownerPrivateKey).signTypedData(paymentTypedData(chainId, message))
  return { ...userOp, signature }
}

/** permit → prepare → sign → submit, returning the submit answer. */
export async function payThroughServer(base: string, invoiceId: bigint | string, payer: Payer, permitDeadline?: number | string) {
  const { permit, prepared, permitSignature } = await permitAndPrepare(base, invoiceId, payer, permitDeadline)
  if (prepared.status !== 200) throw new Error(`prepare: ${prepared.status} ${JSON.stringify(prepared.body)}`)
  // the chain the server pays on, which need not be the devnet's: the token's permit domain names it
  const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash, Number(permit.body.permitToSign.domain.chainId))
  const { v, r, s } = permitSignature
  return { submit: await api(base, `/v1/pay/${invoiceId}`, { userOp, permitSignature: { v, r, s } }), prepared, userOp }
}
