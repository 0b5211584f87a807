import type { ServerResponse } from 'node:http'

/** One of the server's own pages (sign-in, consent, refusals): never kept by a cache, since it
 * belongs to one person's sign-in, and never shown in another site's frame, where a click could be
 * borrowed. */
export function writeHtmlPage(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' })
  res.end(body)
}
