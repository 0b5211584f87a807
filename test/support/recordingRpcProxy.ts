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

type JsonRpcReply = { result?: unknown; error?: unknown }

/**
 * A JSON-RPC forwarder on 127.0.0.1 in front of a service none of us wrote, counting the methods it
 * is asked for. It can be stopped and started again on the same port (the service going down and
 * coming back, as the server sees it), and `alter` can change the service's answers to one method
 * (a service that signs wrong).
 */
export async function startRecordingRpcProxy(target: string) {
  const calls: Record<string, number> = {}
  const alterations = new Map<string, (reply: JsonRpcReply) => JsonRpcReply>()
  const server = await startRestartableLoopbackServer(() =>
    createServer(async (request, response) => {
      const body = await bodyOf(request)
      const methods = methodsOf(body)
      for (const method of methods) calls[method] = (calls[method] ?? 0) + 1
      try {
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const alter = methods.length === 1 ? alterations.get(methods[0]!) : undefined
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        response.end(alter ? JSON.stringify(alter((await upstream.json()) as JsonRpcReply)) : Buffer.from(await upstream.arrayBuffer()))
      } catch {
        response.writeHead(502).end()
      }
    }),
  )
  return {
    ...server,
    calls,
    /** From now on the service's replies to `method` pass through `change`; `undefined` stops that. */
    alter(method: string, change: ((reply: JsonRpcReply) => JsonRpcReply) | undefined) {
      if (change) alterations.set(method, change)
      else alterations.delete(method)
    },
  }
}
