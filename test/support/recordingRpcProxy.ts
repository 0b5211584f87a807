import { createServer, type IncomingMessage } from 'node:http'
import { startRestartableLoopbackServer } from './loopback'

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString()
}

/** One JSON-RPC call as asked for. */
export type RecordedRpcCall = { method: string; params: unknown }

/** The JSON-RPC calls a body makes, a batch's included. */
function callsOf(body: string): RecordedRpcCall[] {
  try {
    const parsed = JSON.parse(body) as unknown
    return (Array.isArray(parsed) ? parsed : [parsed]).map((call) => ({ method: String((call as { method?: unknown }).method), params: (call as { params?: unknown }).params }))
  } catch {
    return []
  }
}

type JsonRpcReply = { result?: unknown; error?: unknown }

/**
 * A JSON-RPC forwarder on 127.0.0.1 in front of a service none of us wrote, counting the methods it
 * is asked for (`calls`, and each call with its parameters in `requests`). It can be stopped and
 * started again on the same port (the service going down and coming back, as the server sees it), and
 * `alter` can change the service's answers to one method (a service that signs wrong), or act on the
 * service between its answer and the caller's (a chain reorganised in between).
 */
export async function startRecordingRpcProxy(target: string) {
  const calls: Record<string, number> = {}
  const requests: RecordedRpcCall[] = []
  const alterations = new Map<string, (reply: JsonRpcReply) => JsonRpcReply | Promise<JsonRpcReply>>()
  const server = await startRestartableLoopbackServer(() =>
    createServer(async (request, response) => {
      const body = await bodyOf(request)
      const asked = callsOf(body)
      const methods = asked.map((call) => call.method)
      requests.push(...asked)
      for (const method of methods) calls[method] = (calls[method] ?? 0) + 1
      try {
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        const alter = methods.length === 1 ? alterations.get(methods[0]!) : undefined
        const reply = alter ? JSON.stringify(await alter((await upstream.json()) as JsonRpcReply)) : Buffer.from(await upstream.arrayBuffer())
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
        response.end(reply)
      } catch {
        response.writeHead(502).end()
      }
    }),
  )
  return {
    ...server,
    calls,
    requests,
    /** Forgets the calls counted and recorded so far. */
    reset() {
      for (const method of Object.keys(calls)) delete calls[method]
      requests.length = 0
    },
    /** From now on the service's replies to `method` pass through `change`; `undefined` stops that. */
    alter(method: string, change: ((reply: JsonRpcReply) => JsonRpcReply | Promise<JsonRpcReply>) | undefined) {
      if (change) alterations.set(method, change)
      else alterations.delete(method)
    },
  }
}
