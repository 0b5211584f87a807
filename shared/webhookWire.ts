import * as z from 'zod/mini'

/** The webhook routes' bodies and the events they deliver: an extension of SPEC 4.12 that the
 * server's routes and a merchant's receiver share. Dates are ISO 8601 (SPEC 1), amounts and block
 * numbers decimal strings in the token's smallest unit, addresses checksummed. */

export const webhookEventTypes = ['invoice.paid', 'invoice.canceled'] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

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

/** The registry's InvoicePaid, with the invoice's token. */
export type InvoicePaidData = OnChain & { payer: string; token: string; amount: string; fee: string; net: string; feeBps: number }
export type InvoiceCanceledData = OnChain

/** A delivery's body, as Standard Webhooks shapes it: `timestamp` is the block's time. */
export type WebhookEvent =
  | { type: 'invoice.paid'; timestamp: string; data: InvoicePaidData }
  | { type: 'invoice.canceled'; timestamp: string; data: InvoiceCanceledData }

export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointRequestSchema>
