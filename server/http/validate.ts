import '../zodLocale'
import type { Context, MiddlewareHandler } from 'hono'
import { validator } from 'hono/validator'
import * as z from 'zod/mini'
import { HttpError, ValidationError } from './httpError'

export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, at = ''): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: [at, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message })),
  )
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
