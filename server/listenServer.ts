import type { ServerType } from '@hono/node-server'
import { Hono } from 'hono'
import { connectionLimitsOf, type Config } from './config'
import type { ConnectionLimits } from './http/connectionLimits'
import { listenOn } from './http/listenOn'
import { closeHttpServer } from './ops/shutdown'
import { operationsRoutes } from './routes/operations'
import type { WiredServices } from './wireServices'

/** The open listeners: the public one (HOST, PORT) and, with OPS_PORT, the platform's. */
export type Listening = {
  url: string
  port: number
  /** The OPS_PORT listener's URL (GET /readyz and /metrics), when there is one. */
  opsUrl?: string
  /** Stops taking connections on both and resolves once every request in flight is answered. */
  close(): Promise<void>
}

/** The platform's listener (OPS_PORT): readiness and metrics for the probes and the scraper, on an
 * address the public never reaches (127.0.0.1 unless OPS_HOST says otherwise). */
async function listenForOperations(hostname: string, port: number, routes: Hono, limits: ConnectionLimits): Promise<{ server: ServerType; url: string }> {
  const app = new Hono()
  app.route('/', routes)
  app.notFound((c) => c.json({ error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no such route' }, 404))
  const server = await listenOn({ fetch: app.fetch, hostname, port, variable: 'OPS_PORT', hostVariable: 'OPS_HOST', limits })
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  return { server, url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${bound}` }
}

/** Serves the app on HOST and PORT, and readiness and metrics on OPS_PORT when it is set. */
export async function listenServer(config: Config, { app, readiness, metrics }: Pick<WiredServices, 'app' | 'readiness' | 'metrics'>): Promise<Listening> {
  const limits = connectionLimitsOf(config)
  const server = await listenOn({ fetch: app.fetch, hostname: config.HOST, port: config.PORT, variable: 'PORT', hostVariable: 'HOST', limits })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  const url = `http://${config.HOST}:${port}`
  const ops = config.OPS_PORT === undefined ? null : await listenForOperations(config.OPS_HOST, config.OPS_PORT, operationsRoutes({ readiness, registry: metrics.registry }), limits)
  return {
    url,
    port,
    ...(ops ? { opsUrl: ops.url } : {}),
    close: async () => {
      await Promise.all([closeHttpServer(server), ...(ops ? [closeHttpServer(ops.server)] : [])])
    },
  }
}
