import { createServer, type IncomingMessage } from 'node:http'
import { startRestartableLoopbackServer } from './loopback'

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString()
}

/** The JSON-RPC methods a body asks for, a batch's included. */
function methodsOf(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as unknown
    return (Array.isArray(parsed) ? parsed : [parsed]).map((call) => String((call as { method?: unknown }).method))
  } catch {
    return []
  }
}

/**
 * A JSON-RPC forwarder on 127.0.0.1 in front of a service none of us wrote, counting the methods it
 * is asked for. It can be stopped and started again on the same port: the service going down and
 * coming back, as the server sees it.
 */
export async function startRecordingRpcProxy(target: string) {
  const calls: Record<string, number> = {}
  const server = await startRestartableLoopbackServer(() =>
    createServer(async (request, response) => {
      const body = await bodyOf(request)
      for (const method of methodsOf(body)) calls[method] = (calls[method] ?? 0) + 1
      try {
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        response.end(Buffer.from(await upstream.arrayBuffer()))
      } catch {
        response.writeHead(502).end()
      }
    }),
  )
  return { ...server, calls }
}
