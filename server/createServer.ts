import { serve, type ServerType } from '@hono/node-server'
import { createWalletClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Deployment } from '../src/shared/deployment'
import { createApp } from './app'
import { localBundler, rpcBundler, type Bundler } from './chain/bundler'
import { chainFor, createChainClient } from './chain/chainClient'
import { createInvoiceReader } from './chain/invoiceReader'
import { erc7677Sponsor, localVerifyingSponsor, type Sponsor } from './chain/sponsor'
import type { Config } from './config'
import type { Logger } from './http/logger'
import type { PayContext } from './payments/payContext'
import type { Database } from './store/database'
import { openMigratedDatabase, openStores, type Stores } from './store/openStores'

export type RunningServer = {
  url: string
  port: number
  stores: Stores
  close(): Promise<void>
}

export function deploymentOf(config: Config): Deployment {
  return {
    chainId: config.CHAIN_ID,
    entryPoint: config.ENTRY_POINT_ADDRESS,
    token: config.TOKEN_ADDRESS,
    registry: config.REGISTRY_ADDRESS,
    vaultFactory: config.VAULT_FACTORY_ADDRESS,
    paymaster: config.PAYMASTER_ADDRESS,
  }
}

function bundlerFor(config: Config, context: { client: PayContext['client']; deployment: Deployment }): Bundler {
  if (config.BUNDLER_URL) return rpcBundler({ url: config.BUNDLER_URL, deployment: context.deployment })
  const wallet = createWalletClient({
    chain: chainFor(config.CHAIN_ID, config.RPC_URL),
    transport: http(config.RPC_URL, { retryCount: 0, timeout: 10_000 }),
    account: privateKeyToAccount(config.BUNDLER_PRIVATE_KEY!),
  })
  return localBundler({ ...context, wallet, fromBlock: config.REGISTRY_FROM_BLOCK })
}

function sponsorFor(config: Config, deployment: Deployment): Sponsor {
  if (config.PAYMASTER_URL) return erc7677Sponsor({ url: config.PAYMASTER_URL, deployment })
  return localVerifyingSponsor({ deployment, signer: privateKeyToAccount(config.PAYMASTER_SIGNER_PRIVATE_KEY!) })
}

/** Opens the database (unless given one already open), wires the chain parts and listens.
 * `now` is injectable for expiry tests. */
export async function createServer(
  config: Config,
  { logger, now = Date.now, db }: { logger: Logger; now?: () => number; db?: Database },
): Promise<RunningServer> {
  const deployment = deploymentOf(config)
  const client = createChainClient(config.CHAIN_ID, config.RPC_URL)
  const stores = openStores(config, db ?? (await openMigratedDatabase(config)))
  const pay: PayContext = {
    client,
    deployment,
    invoices: createInvoiceReader({ client, deployment, fromBlock: config.REGISTRY_FROM_BLOCK }),
    sponsor: sponsorFor(config, deployment),
    bundler: bundlerFor(config, { client, deployment }),
    payments: stores.payments,
    now,
    submitWaitMs: config.SUBMIT_WAIT_MS,
    receiptPollMs: 100,
  }
  const app = createApp({
    pay,
    metadata: stores.metadataAccess,
    logger,
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    trustProxy: config.TRUST_PROXY,
  })
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, () => resolve(listening))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  return {
    url: `http://${config.HOST}:${port}`,
    port,
    stores,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await stores.close()
    },
  }
}
