import type { IncomingMessage } from 'node:http'

/** The most a sign-in or consent form may send: a few fields, never a document. */
const formByteLimit = 16_384

/** Reads a browser form (application/x-www-form-urlencoded) from a Node request, refusing one over
 * the limit before it is held in memory: the sign-in and consent pages run outside Hono's body limits. */
export async function readFormBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > formByteLimit) throw new Error('form too large')
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}
