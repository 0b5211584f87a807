import { afterAll, beforeAll } from 'vitest'
import type { Config } from '../../server/config'
import { createServer, type RunningServer } from '../../server/createServer'
import { devnetConfig } from '../../devnet/devnetConfig'
import { seedMerchantAccess, type SeededMerchantAccess } from '../../devnet/seedMerchantAccess'
import { seedMetadata, type SeededShareLink } from '../../devnet/seedMetadata'
import { silentLogger, type Logger } from '../../server/http/logger'
import type { WebhookSchedule } from '../../server/webhooks/deliverWebhooks'
import { useDevnet } from './devnet'
import { useDatabases } from './postgres'

export type UseInstancesParameters = {
  now?: () => number
  overrides?: Record<string, string>
  logger?: Logger
  /** Runs once the devnet is up, before the servers start: returns more configuration (a Redis URL). */
  beforeServers?: (devnet: ReturnType<typeof useDevnet>) => Promise<Record<string, string>>
  /** A shorter webhook retry schedule than production's. */
  webhookSchedule?: Partial<WebhookSchedule>
}

/** A devnet and two server instances sharing one PostgreSQL database (two pools), as a deployment
 * behind a load balancer has them; seeded with the demo merchant's metadata, studio and API key. */
export function useInstances(options: UseInstancesParameters = {}) {
  const devnet = useDevnet()
  const databases = useDatabases()
  const context = { devnet } as {
    devnet: typeof devnet
    servers: [RunningServer, RunningServer]
    config: Config
    shareLinks: SeededShareLink[]
    merchant: SeededMerchantAccess
  }
  beforeAll(async () => {
    const databasesOfServers = await databases.openTwo('postgres')
    // One public origin in front of both, as behind a load balancer: share links name it, not an instance.
    const extra = options.beforeServers ? await options.beforeServers(devnet) : {}
    const overrides = { RATE_LIMIT_PER_MINUTE: '100000', PUBLIC_URL: 'https://checkout.example.test', ...options.overrides, ...extra }
    context.config = devnetConfig(devnet, { port: 0, overrides })
    const serverOptions = {
      logger: options.logger ?? silentLogger,
      ...(options.now ? { now: options.now } : {}),
      ...(options.webhookSchedule ? { webhookSchedule: options.webhookSchedule } : {}),
    }
    // useDatabases closes the databases after the file; the servers must not close them first.
    const [a, b] = await Promise.all(databasesOfServers.map((db) => createServer(context.config, { ...serverOptions, db: { ...db, close: async () => {} } })))
    context.servers = [a!, b!]
    context.shareLinks = await seedMetadata(a!.stores, devnet, a!.publicUrl, devnet.seed.invoices)
    context.merchant = await seedMerchantAccess(a!.stores, devnet)
  })
  afterAll(async () => {
    await Promise.all((context.servers ?? []).map((server) => server.close()))
  })
  return context
}
