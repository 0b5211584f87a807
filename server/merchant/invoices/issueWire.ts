import * as z from 'zod/mini'
import { bytes32Schema, uintStringSchema } from '../../../shared/deployment'

/** SPEC 4.9 and 8: POST /v1/invoices/issue's body and answers, as the route validates and documents them. */

export const maxDescriptionLength = 500
const maxUint256 = 2n ** 256n - 1n

/** A base-unit integer, as a decimal string (preferred) or a JSON integer a client's number can hold exactly. */
const wholeNumber = (what: string, max: bigint) =>
  z.pipe(
    z.union([
      z.string().check(z.regex(/^(0|[1-9]\d{0,77})$/, `the ${what} is a whole number written in decimal, such as "1500000"`)),
      z.int(`the ${what} is a whole number, preferably a decimal string`).check(z.minimum(0, `the ${what} must not be negative`)),
    ]),
    z.pipe(
      z.transform((value: string | number) => BigInt(value)),
      z.bigint().check(z.refine((value) => value <= max, `the ${what} is too large`)),
    ),
  )

/** The last second a calendar date can be written for (ECMAScript's last date, 275760-09-13): the
 * invoice's document states its due date, and a later one could not be written. */
export const lastCalendarSecond = 8_640_000_000_000n

export const issueRequestSchema = z
  .strictObject({
    // optional in the schema only so that its absence is answered as the workflow's rule, with a path
    customerId: z.optional(z.uuid('the customer id is a customer UUID (POST /v1/customers answers it)')),
    amount: z.pipe(wholeNumber('amount', maxUint256), z.bigint().check(z.refine((value) => value > 0n, 'the amount must be positive'))),
    dueAt: z.optional(wholeNumber('due time (Unix seconds)', lastCalendarSecond)),
    dueDays: z.optional(
      z.pipe(
        z.union([z.string().check(z.regex(/^\d{1,4}$/, 'dueDays is a whole number of days')), z.int('dueDays is a whole number of days')]),
        z.pipe(z.transform((value: string | number) => Number(value)), z.int().check(z.minimum(0, 'dueDays must not be negative'), z.maximum(3650, 'dueDays is at most 3650 (ten years)'))),
      ),
    ),
    description: z.optional(z.string().check(z.maxLength(maxDescriptionLength, `the description is at most ${maxDescriptionLength} characters`))),
    sendEmail: z.optional(z.boolean('sendEmail is true or false')),
  })
  .check(
    z.superRefine((body, context) => {
      if (body.customerId === undefined) {
        context.issues.push({ code: 'custom', path: ['customerId'], message: 'the customer is required: issue to one of your customers (POST /v1/customers)', input: body })
      }
      if ((body.dueAt === undefined) === (body.dueDays === undefined)) {
        context.issues.push({ code: 'custom', path: ['dueAt'], message: 'send exactly one of dueAt (Unix seconds) and dueDays (days from now)', input: body })
      }
    }),
  )

export type IssueRequest = z.output<typeof issueRequestSchema>

const idempotencySchema = z.optional(z.object({ key: z.string(), replayed: z.boolean(), state: z.enum(['confirmed', 'pending']) }))

export const deliverySchema = z.object({
  status: z.enum(['queued', 'sent', 'failed', 'not_configured']),
  messageId: z.optional(z.string()),
  to: z.string(),
})

/** 200: the invoice on-chain, its metadata stored and its share link made. Top-level, not under data. */
export const issuedAnswerSchema = z.object({
  id: uintStringSchema,
  invoiceNumber: uintStringSchema,
  amount: uintStringSchema,
  status: z.literal('Issued'),
  issuedAt: uintStringSchema,
  dueAt: uintStringSchema,
  userOpHash: bytes32Schema,
  txHash: bytes32Schema,
  /** The pay page with its token: a bearer credential, never to be stripped of its query. */
  shareLink: z.url(),
  paymentUrl: z.url(),
  delivery: z.optional(deliverySchema),
  idempotency: idempotencySchema,
})

/** 202: sent, not yet on-chain; nothing shareable yet (SPEC 7.5). */
export const pendingIssueAnswerSchema = z.object({
  status: z.literal('pending'),
  userOpHash: bytes32Schema,
  message: z.string(),
  idempotency: idempotencySchema,
})

export const issueAnswerSchema = z.union([issuedAnswerSchema, pendingIssueAnswerSchema])
