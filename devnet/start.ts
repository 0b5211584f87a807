import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { formatUnits } from 'viem'
import * as z from 'zod/mini'
import { configSchema } from '../server/config'
import { createServer } from '../server/createServer'
import { devnetConfig, serverOverrides } from './devnetConfig'
import { devnetDir, writeDevnetFile, type DevnetFile } from './devnetFile'
import { devnetPage } from './devnetPage'
import { seedMerchantAccess } from './seedMerchantAccess'
import { seedMetadata } from './seedMetadata'
import { startDevnet } from './startDevnet'
import { readEmbedManifest, startStorefront, type StorefrontProduct } from './storefront'
import { jsonLogger } from '../server/http/logger'
import { stopOnSignals } from '../server/ops/shutdown'
import { openMigratedDatabase } from '../server/store/openStores'

const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))
const env = z
  .object({
    PORT: z._default(port, 8787),
    DEVNET_RPC_PORT: z._default(port, 8545),
    STOREFRONT_PORT: z._default(port, 8788),
    LOG_REQUESTS: z._default(z.stringbool(), false),
    SHUTDOWN_TIMEOUT_MS: configSchema.shape.SHUTDOWN_TIMEOUT_MS,
  })
  .parse(process.env)

const started = performance.now()
const dir = devnetDir()
// the devnet's chain is new on every start, so its database is too
const dataDir = join(dir, 'pglite')
rmSync(dataDir, { recursive: true, force: true })
// PGlite takes seconds to start: open it while the chain is deployed and seeded, and the page built
// for this devnet's RPC when `npm run build` pinned another
const [{ devnet, payPageDir }, db] = await Promise.all([
  startDevnet({ port: env.DEVNET_RPC_PORT }).then(async (devnet) => {
    try {
      return { devnet, payPageDir: await devnetPage(devnet.pinned, dir) }
    } catch (error) {
      await devnet.anvil.stop()
      throw error
    }
  }),
  openMigratedDatabase({ DATA_DIR: dataDir }),
])
const { anvil, deployment, seed } = devnet

// the demo storefront, on its own origin, is one the pay page may be framed by
let products: StorefrontProduct[] = []
const storefront = await startStorefront({ port: env.STOREFRONT_PORT, products: () => products })
const logger = jsonLogger()
const overrides = { ALLOWED_FRAME_ANCESTORS: `'self' ${storefront.url}`, ...serverOverrides(process.env) }
const server = await createServer(devnetConfig(devnet, { port: env.PORT, dataDir, overrides }), {
  db,
  payPageDir,
  // request lines only when asked for: the devnet's own output is for people
  logger: env.LOG_REQUESTS ? logger : logger.child({}, { level: 'error' }),
  // the page's built-in devnet wallet pays as the demo payer: a devnet-only route
  devnetWallet: { privateKey: devnet.seed.payer.ownerPrivateKey, rpcUrl: devnet.anvil.rpcUrl },
})
const shareLinks = await seedMetadata(server.stores, devnet, server.publicUrl)
storefront.checkoutReady(server.url, anvil.rpcUrl, readEmbedManifest(payPageDir))
products = seed.invoices.slice(0, 3).map((invoice) => ({
  name: invoice.metadata.description ?? invoice.metadata.invoiceNumber,
  description: invoice.metadata.lineItems.map((item) => item.description).join(', '),
  invoiceId: invoice.id.toString(),
  token: new URL(shareLinks.find((link) => link.invoiceId === invoice.id)!.shareLink).searchParams.get('token')!,
  amount: formatUnits(invoice.amount, 6),
}))
// PGlite belongs to this process, so the devnet's key is made here rather than by `npm run keys`.
const merchantAccess = await seedMerchantAccess(server.stores, devnet)

const file: DevnetFile = {
  chainId: deployment.chainId,
  rpcUrl: anvil.rpcUrl,
  serverUrl: server.url,
  storefrontUrl: storefront.url,
  contracts: {
    entryPoint: deployment.entryPoint,
    token: deployment.token,
    registry: deployment.registry,
    vaultFactory: deployment.vaultFactory,
    paymaster: deployment.paymaster,
  },
  merchant: { ...seed.merchant, ...merchantAccess },
  payer: seed.payer,
  invoices: seed.invoices.map((invoice) => ({
    id: invoice.id.toString(),
    amount: invoice.amount.toString(),
    invoiceNumber: invoice.metadata.invoiceNumber,
    dueAt: invoice.dueAt.toString(),
    shareLink: shareLinks.find((link) => link.invoiceId === invoice.id)!.shareLink,
  })),
  startedAt: new Date().toISOString(),
}
const path = writeDevnetFile(dir, file)
const readyMs = Math.round(performance.now() - started)

const usdc = (amount: bigint) => `${Number(formatUnits(amount, 6)).toLocaleString('en-US', { minimumFractionDigits: 2 })} USDC`
console.log(
  [
    `svc-checkout devnet ready in ${readyMs} ms`,
    `  chain      ${deployment.chainId} at ${anvil.rpcUrl}`,
    `  server     ${server.url}`,
    `  contracts  EntryPoint ${deployment.entryPoint}, registry ${deployment.registry}, USDC ${deployment.token}`,
    `  merchant   vault ${seed.merchant.vault}, API key ${merchantAccess.apiKey.keyId} (its secret is in devnet.json)`,
    `  payer      vault ${seed.payer.vault} (not deployed yet), holds ${usdc(10_000_000_000n)}`,
    '  invoices   open a share link to pay:',
    ...seed.invoices.map((invoice, index) => `    ${invoice.metadata.invoiceNumber}  ${usdc(invoice.amount).padStart(15)}  ${file.invoices[index]!.shareLink}`),
    `  storefront ${storefront.url} (script tag, plain iframe and inline embeds on another origin)`,
    `  details    ${path}`,
    'Ctrl-C stops everything.',
  ].join('\n'),
)

stopOnSignals(
  async () => {
    await Promise.all([server.close(), storefront.close()])
    await anvil.stop()
  },
  { timeoutMs: env.SHUTDOWN_TIMEOUT_MS, logger },
)
