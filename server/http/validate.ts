import '../zodLocale'
import type { Context, MiddlewareHandler } from 'hono'
import { validator } from 'hono/validator'
import * as z from 'zod/mini'
import { HttpError, ValidationError } from './httpError'

export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, at = ''): z.infer<S> {
  refuseNul(value, at ? [at] : [])
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: [at, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message })),
  )
}

/**
 * No text a client sends may carry U+0000: PostgreSQL's text cannot hold it, so a NUL reaching a query
 * failed there as a server error, and no name, email, number or search means one. Refused before any
 * schema, at the field that carries it.
 */
type PathLink = { key: string; parent: PathLink | null } | null

function refuseNul(value: unknown, at: string[]): void {
  // a walk without recursion, each path a link to its parent: a 64 KiB body can nest thirty thousand
  // arrays deep, and neither the stack nor copied paths may grow with that
  const root = at.reduce<PathLink>((parent, key) => ({ key, parent }), null)
  const pending: [unknown, PathLink][] = [[value, root]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, link] = next
    if (typeof item === 'string') {
      if (item.includes('\u0000')) throw new ValidationError([{ path: pathOf(link), message: 'the text contains a NUL character (U+0000), which no field accepts' }])
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) pending.push([key.includes('\u0000') ? '\u0000' : child, { key, parent: link }])
    }
  }
}

function pathOf(link: PathLink): string {
  const keys: string[] = []
  for (let at = link; at; at = at.parent) keys.unshift(at.key)
  return keys.join('.')
}

/** The path's parameters, parsed by `schema` before the handler runs (read with `c.req.valid('param')`). */
export const validParams = <S extends z.ZodMiniType>(schema: S) => validator('param', (value) => validate(schema, value))

/** The query string, parsed by `schema` before the handler runs (read with `c.req.valid('query')`). */
export const validQuery = <S extends z.ZodMiniType>(schema: S) => validator('query', (value) => validate(schema, value))

/**
 * The JSON body, read once and parsed by `schema` before the handler runs (`c.req.valid('json')`).
 * Another media type is a 415 and a body that is not JSON a validation error, never a crash;
 * `optional` lets a request leave the body out, which then reads as `{}`.
 */
export function validJsonBody<S extends z.ZodMiniType>(schema: S, { optional = false } = {}): MiddlewareHandler {
  return async function validatedBody(c, next) {
    c.req.addValidatedData('json', validate(schema, await readJson(c, optional), 'body') as object)
    await next()
  }
}

async function readJson(c: Context, optional: boolean): Promise<unknown> {
  const text = await c.req.text()
  if (optional && text.length === 0) return {}
  const type = c.req.header('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json')
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new ValidationError([{ path: 'body', message: 'the body is not valid JSON' }])
  }
}

/** SPEC 2.4: invoice ids are non-negative integers (uint256), written in decimal. */
const invoiceIdMessage = 'the invoice id must be a non-negative integer'
export const invoiceIdSchema = z.pipe(
  z.string().check(
    // aborting here keeps BigInt from ever reading something that is not digits
    z.regex(/^(0|[1-9]\d{0,77})$/, { message: invoiceIdMessage, abort: true }),
    z.refine((id) => BigInt(id) < 2n ** 256n, invoiceIdMessage),
  ),
  z.transform((id) => BigInt(id)),
)

export const invoiceIdParams = z.object({ id: invoiceIdSchema })
