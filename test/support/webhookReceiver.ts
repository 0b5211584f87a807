import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { Webhook } from 'standardwebhooks'
import { listenOnLoopback } from './loopback'

/** One request a receiver got, as its backend would see it. */
export type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string; at: number }

/** What the receiver answers: a status (and headers), or `hang` to answer nothing until the connection is cut. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang'

/**
 * A merchant's webhook receiver on 127.0.0.1: a real HTTP server that records every request and
 * answers as `answer` says (200 by default). The caller closes it.
 */
export async function startWebhookReceiver(answer: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 200 })) {
  const received: ReceivedWebhook[] = []
  const hanging = new Set<ServerResponse>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request: ReceivedWebhook = {
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      }
      received.push(request)
      const reply = answer(request, received.length - 1)
      if (reply === 'hang') {
        hanging.add(res)
        return
      }
      res.writeHead(reply.status, reply.headers ?? {})
      res.end('{"received":true}')
    })
  })
  const port = await listenOnLoopback(server, 0)
  const close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** The requests made to `path`. */
    at: (path: string) => received.filter((request) => request.path === path),
    close,
  }
}

/** What a merchant's backend does with a delivery: Standard Webhooks' own verification, the parsed event. */
export function verified(secret: string, request: ReceivedWebhook): any {
  return new Webhook(secret).verify(request.body, request.headers)
}
