import '../zodLocale'
import type { Context } from 'hono'
import * as z from 'zod/mini'
import { HttpError, ValidationError } from './httpError'

export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, at = ''): z.infer<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new ValidationError(
    result.error.issues.map((issue) => ({ path: [at, ...issue.path.map(String)].filter(Boolean).join('.'), message: issue.message })),
  )
}

/** Reads a JSON body once; a body that is not JSON is a validation error, not a crash. */
export async function jsonBody<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.infer<S>> {
  const type = c.req.header('content-type') ?? ''
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json')
  }
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new ValidationError([{ path: 'body', message: 'the body is not valid JSON' }])
  }
  return validate(schema, body, 'body')
}

/** SPEC 2.4: invoice ids are non-negative integers (uint256), written in decimal. */
const invoiceIdSchema = z.string().check(z.regex(/^(0|[1-9]\d{0,77})$/, 'the invoice id must be a non-negative integer'))

export function invoiceIdParam(c: Context): bigint {
  const id = BigInt(validate(invoiceIdSchema, c.req.param('id'), 'id'))
  if (id >= 2n ** 256n) throw new ValidationError([{ path: 'id', message: 'the invoice id must be a non-negative integer' }])
  return id
}
