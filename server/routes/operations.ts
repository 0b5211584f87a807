import { Hono } from 'hono'
import type { Registry } from 'prom-client'
import type { Readiness } from '../ops/readiness'

/**
 * For the platform that runs the server, not for payers: liveness (the process answers), readiness
 * (its dependencies answer: route traffic here) and Prometheus metrics.
 */
export function operationsRoutes({ readiness, registry, only }: { readiness: () => Promise<Readiness>; registry: Registry; only?: 'liveness' }) {
  const app = new Hono()

  // nothing but the process: a restart cannot fix a dependency that is down
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  // readiness probes every dependency and metrics renders every series: with OPS_PORT set they are
  // served there, and the public listener keeps only the free liveness answer
  if (only === 'liveness') return app

  app.get('/readyz', async (c) => {
    const { ready, checks } = await readiness()
    c.header('Cache-Control', 'no-store')
    return c.json({ status: ready ? 'ready' : 'unready', checks }, ready ? 200 : 503)
  })

  app.get('/metrics', async (c) => c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType }))

  return app
}
