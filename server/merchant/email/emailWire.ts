import * as z from 'zod/mini'

/** POST /v1/invoices/:id/send-email (SPEC 4.11): the customer to check the invoice's against, or none. */
export const sendEmailRequestSchema = z.strictObject({
  customerId: z.optional(z.uuid('the customer id is a UUID')),
})

/** SPEC 4.9-4.11's `delivery`: `not_configured` where the server has no SMTP server (SMTP_URL). */
export const deliverySchema = z.object({
  status: z.enum(['queued', 'sent', 'failed', 'not_configured']),
  messageId: z.optional(z.string()),
  to: z.string(),
})

export const sendEmailResponseSchema = z.object({ delivery: deliverySchema })
