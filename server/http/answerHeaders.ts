import type { Context, Next } from 'hono'

/**
 * Runs `next` with `headers` on its answer, whatever answers: the handler, the error handler or the
 * not-found one.
 *
 * They are set before `next`, so the handler's own Response is made with them. Set on a Response
 * already made, Hono copies it into a new one whose body is a stream (Response bodies cannot be
 * reused), and the Node adapter then reads that stream instead of writing the bytes it was given:
 * on GET /v1/pay/:id that copy cost more than the route itself. A Response a handler builds without
 * the context (`new Response`) does not carry them: only then are they set afterwards, the slow way.
 */
export async function answerHeaders(c: Context, headers: Record<string, string>, next: Next): Promise<void> {
  for (const name in headers) c.header(name, headers[name])
  await next()
  const answered = c.res.headers
  for (const name in headers) if (answered.get(name) !== headers[name]) c.header(name, headers[name])
}
