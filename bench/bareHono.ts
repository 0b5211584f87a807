import { serve } from '@hono/node-server'
import { Hono } from 'hono'

/**
 * The floor a route is measured against: Hono on the Node adapter answering fixed bytes, with nothing
 * in front. serverBench.ts starts it in a process of its own, as the server runs in its own, with
 * the answers to serve (by path) as JSON on stdin; it prints the port it listens on.
 */
export type FixedAnswer = { path: string; status: number; headers: Record<string, string>; bodyBase64: string }

const chunks: Buffer[] = []
for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
const answers = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FixedAnswer[]
const app = new Hono()
for (const answer of answers) {
  const body = new Uint8Array(Buffer.from(answer.bodyBase64, 'base64'))
  // routed by path alone, as the server routes: a query string changes nothing here
  app.get(answer.path, (c) => c.body(body, answer.status as 200, answer.headers))
}
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`listening ${info.port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
