import * as z from 'zod/mini'

/** The webhook routes' bodies and the events they deliver: an extension of SPEC 4.12 that the
 * server's routes and a merchant's receiver share. Dates are ISO 8601 (SPEC 1), amounts and block
 * numbers decimal strings in the token's smallest unit, addresses checksummed. */

export const webhookEventTypes = ['invoice.paid', 'invoice.canceled', 'invoice.refunded'] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

/** What an endpoint created without `events` receives: the types every receiver knew when it was
 * written. invoice.refunded came later, and a receiver verifying with an older package refuses a
 * type it does not know, so it is asked for by name. */
export const defaultWebhookEventTypes = ['invoice.paid', 'invoice.canceled'] as const satisfies readonly WebhookEventType[]

export const webhookEventTypeSchema = z.enum(webhookEventTypes)

/** POST /v1/webhook-endpoints. `events` left out: every type. The server also refuses a URL whose
 * host resolves to a private address (docs/webhooks.md). */
export const createWebhookEndpointRequestSchema = z.strictObject({
  url: z.string().check(
    z.maxLength(2048),
    z.refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), 'an http(s) URL'),
  ),
  events: z.optional(
    z.array(webhookEventTypeSchema).check(
      z.minLength(1),
      z.refine((events) => new Set(events).size === events.length, 'each event type once'),
    ),
  ),
})

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  /** `failing`: an event went undelivered for three days; cleared by the next delivery that succeeds. */
  status: z.enum(['active', 'failing']),
  failingSince: z.nullable(z.string()),
  createdAt: z.string(),
})

/** The secret (`whsec_` + base64 of 32 bytes) is in this answer and never again. */
export const createdWebhookEndpointResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  secret: z.string(),
  createdAt: z.string(),
})

export const webhookEndpointListResponseSchema = z.object({ endpoints: z.array(webhookEndpointSchema) })

export const deletedWebhookEndpointResponseSchema = z.object({ id: z.string(), deleted: z.literal(true) })

export const rotatedWebhookSecretResponseSchema = z.object({
  id: z.string(),
  secret: z.string(),
  /** Until then deliveries carry a signature under the previous secret as well. */
  previousSecretExpiresAt: z.string(),
})

const decimal = z.string().check(z.regex(/^(0|[1-9]\d*)$/))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
const isoTime = z.iso.datetime({ offset: true })

/** The event bodies as schemas, for the OpenAPI document's `webhooks` and for a receiver that parses. */
const onChainShape = {
  chainId: z.number().check(z.int()),
  registry: address,
  invoiceId: decimal,
  /** The invoice's merchant: the studio's vault. */
  merchant: address,
  txHash: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
  logIndex: z.number().check(z.int()),
  blockNumber: decimal,
  blockTime: isoTime,
}

/** The registry's InvoicePaid, with the invoice's token: `amount` is its gross, `fee + net = amount`. */
export const invoicePaidDataSchema = z.object({
  ...onChainShape,
  payer: address,
  token: address,
  amount: decimal,
  fee: decimal,
  net: decimal,
  feeBps: z.number().check(z.int()),
})
export const invoiceCanceledDataSchema = z.object(onChainShape)
/** The registry's InvoiceRefunded: `amount` went back to `payer` (the payer the registry recorded),
 * `refundedTotal` is everything refunded of the invoice so far, this refund included. */
export const invoiceRefundedDataSchema = z.object({ ...onChainShape, payer: address, token: address, amount: decimal, refundedTotal: decimal })

/** A delivery's body, as Standard Webhooks shapes it: `timestamp` is the block's time. */
export const invoicePaidEventSchema = z.object({ type: z.literal('invoice.paid'), timestamp: isoTime, data: invoicePaidDataSchema })
export const invoiceCanceledEventSchema = z.object({ type: z.literal('invoice.canceled'), timestamp: isoTime, data: invoiceCanceledDataSchema })
export const invoiceRefundedEventSchema = z.object({ type: z.literal('invoice.refunded'), timestamp: isoTime, data: invoiceRefundedDataSchema })
export const webhookEventSchema = z.discriminatedUnion('type', [invoicePaidEventSchema, invoiceCanceledEventSchema, invoiceRefundedEventSchema])

/** Where an event happened on the chain: every event's data carries it. */
type OnChain = {
  chainId: number
  registry: string
  invoiceId: string
  merchant: string
  txHash: string
  logIndex: number
  blockNumber: string
  blockTime: string
}

export type InvoicePaidData = OnChain & { payer: string; token: string; amount: string; fee: string; net: string; feeBps: number }
export type InvoiceCanceledData = OnChain
export type InvoiceRefundedData = OnChain & { payer: string; token: string; amount: string; refundedTotal: string }

/** A delivery's body, as Standard Webhooks shapes it: `timestamp` is the block's time. Written out
 * (the merchant package restates it); the schema above must describe the same shape. */
export type WebhookEvent =
  | { type: 'invoice.paid'; timestamp: string; data: InvoicePaidData }
  | { type: 'invoice.canceled'; timestamp: string; data: InvoiceCanceledData }
  | { type: 'invoice.refunded'; timestamp: string; data: InvoiceRefundedData }

// the document's schema and the type cannot drift apart: each is assignable to the other
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
const schemaIsType: Same<z.infer<typeof webhookEventSchema>, WebhookEvent> = true
void schemaIsType

export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>
