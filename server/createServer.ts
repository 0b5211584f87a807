import { distDir as defaultDistDir } from '../build/distDir'
import type { DevnetWalletKey } from '../shared/devnetWalletKey'
import type { Config } from './config'
import type { Logger } from './http/logger'
import { listenServer } from './listenServer'
import { startBackgroundJobs } from './startBackgroundJobs'
import type { Database } from './store/database'
import type { Stores } from './store/openStores'
import type { WebhookSchedule } from './webhooks/deliverWebhooks'
import type { HostLookup } from './webhooks/verifyWebhookUrl'
import { wireServices } from './wireServices'

export type RunningServer = {
  url: string
  /** PUBLIC_URL, else `url`: where share links point. */
  publicUrl: string
  port: number
  /** The OPS_PORT listener's URL (GET /readyz and /metrics), when there is one. */
  opsUrl?: string
  stores: Stores
  close(): Promise<void>
}


/** What createServer is given besides its configuration. `now` is injectable for expiry tests;
 * `payPageDir` is the built page (default SVC_DIST_DIR or dist/); `webhookSchedule` shortens the
 * webhooks' retry schedule for tests (the configuration's interval, timeout and lease win over it);
 * `webhookLookup` resolves webhook hosts instead of the system's resolver. */
export type CreateServerDependencies = {
  logger: Logger
  now?: () => number
  db?: Database
  devnetWallet?: DevnetWalletKey
  payPageDir?: string
  webhookSchedule?: Partial<WebhookSchedule>
  webhookLookup?: HostLookup
}

/**
 * Composes the server: the wired services (wireServices.ts: stores, chain clients, the app; nothing
 * started), the listener (listenServer.ts), then the background jobs (startBackgroundJobs.ts).
 */
export async function createServer(
  config: Config,
  { logger, now = Date.now, db, devnetWallet, payPageDir = defaultDistDir(), webhookSchedule, webhookLookup }: CreateServerDependencies,
): Promise<RunningServer> {
  const services = await wireServices(config, { logger, now, db, devnetWallet, payPageDir, webhookLookup })
  const listening = await listenServer(config, services)
  services.publicUrl.listeningAt(listening.url)
  const jobs = startBackgroundJobs(config, services, { logger, now, webhookSchedule, webhookLookup })
  return {
    url: listening.url,
    publicUrl: services.publicUrl.current(),
    port: listening.port,
    ...(listening.opsUrl ? { opsUrl: listening.opsUrl } : {}),
    stores: services.stores,
    /** Stops the background jobs (the reconciler after its pass under way first), then taking
     * connections, answers the requests in flight, then closes Redis and the database. */
    async close() {
      await jobs.stop()
      await listening.close()
      await services.close()
    },
  }
}
