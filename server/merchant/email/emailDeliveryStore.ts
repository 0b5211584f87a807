import { CodedError } from '../../../shared/codedError'
import type { Database } from '../../store/database'
import { invoiceKeyParams, type InvoiceKey } from '../../store/invoiceKey'

export type EmailDeliveryStatus = 'queued' | 'sent' | 'failed'

export type EmailDelivery = {
  studioId: string
  invoiceId: bigint
  customerId: string | null
  recipient: string
  status: EmailDeliveryStatus
  messageId: string | null
  error: string | null
  attempts: number
  createdAt: Date
  updatedAt: Date
}

type DeliveryRow = {
  studio_id: string
  invoice_id: string
  customer_id: string | null
  recipient: string
  status: EmailDeliveryStatus
  message_id: string | null
  error: string | null
  attempts: number
  created_at: Date
  updated_at: Date
}

const toDelivery = (row: DeliveryRow): EmailDelivery => ({
  studioId: row.studio_id,
  invoiceId: BigInt(row.invoice_id),
  customerId: row.customer_id,
  recipient: row.recipient,
  status: row.status,
  messageId: row.message_id,
  error: row.error,
  attempts: Number(row.attempts),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

export type DeliveryStart = { studioId: string; invoice: InvoiceKey; customerId: string | null; recipient: string }

/** How often a merchant may have one invoice's mail sent again in a UTC day: enough for a reminder
 * and a correction or two, too few to make the service's mail a stream at one customer. */
export const emailRequestsPerDay = 5

/** The merchant asked for this invoice's mail more often today than emailRequestsPerDay: 429. */
export class EmailRequestLimitError extends CodedError {
  override name = 'EmailRequestLimitError'
  readonly code = 'EMAIL_REQUEST_LIMIT'
}

const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))

/** Each invoice's mail to its customer (migration 15): what was last sent, to whom, and how often. */
export function createEmailDeliveryStore(db: Database) {
  return {
    /** Queues the invoice's first mail; null when it has one already (an issuance retry), which
     * `find` then reads: issuance sends at most once. */
    async startFirst({ studioId, invoice, customerId, recipient }: DeliveryStart): Promise<EmailDelivery | null> {
      const [row] = await db.query<DeliveryRow>(
        `INSERT INTO email_deliveries (studio_id, chain_id, registry, invoice_id, customer_id, recipient, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued') ON CONFLICT DO NOTHING RETURNING *`,
        [studioId, ...invoiceKeyParams(invoice), customerId, recipient],
      )
      return row ? toDelivery(row) : null
    },
    /** Queues the invoice's mail again, as the merchant asked (send-email): one more attempt, at most
     * `perDay` of them per invoice and UTC day, else EmailRequestLimitError. One statement: two
     * instances answering at once count both. */
    async startAgain({ studioId, invoice, customerId, recipient }: DeliveryStart, perDay = emailRequestsPerDay): Promise<EmailDelivery> {
      const [row] = await db.query<DeliveryRow>(
        `INSERT INTO email_deliveries (studio_id, chain_id, registry, invoice_id, customer_id, recipient, status, requests_day, requests_on_day)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', (now() AT TIME ZONE 'UTC')::date, 1)
         ON CONFLICT (chain_id, registry, invoice_id) DO UPDATE SET
           customer_id = EXCLUDED.customer_id, recipient = EXCLUDED.recipient, status = 'queued', message_id = NULL, error = NULL,
           attempts = email_deliveries.attempts + 1, updated_at = now(),
           requests_on_day = CASE WHEN email_deliveries.requests_day = EXCLUDED.requests_day THEN email_deliveries.requests_on_day + 1 ELSE 1 END,
           requests_day = EXCLUDED.requests_day
         WHERE email_deliveries.requests_day IS DISTINCT FROM EXCLUDED.requests_day OR email_deliveries.requests_on_day < $7
         RETURNING *`,
        [studioId, ...invoiceKeyParams(invoice), customerId, recipient, perDay],
      )
      if (!row) {
        const resetsAt = nextUtcMidnight(new Date())
        throw new EmailRequestLimitError(`this invoice's mail was sent ${perDay} times today at your request: again from ${resetsAt.toISOString()}`, {
          details: { limit: perDay, resetsAt: resetsAt.toISOString(), retryAfterSeconds: Math.ceil((resetsAt.getTime() - Date.now()) / 1000) },
        })
      }
      return toDelivery(row)
    },
    async finish(invoice: InvoiceKey, outcome: { status: 'sent'; messageId: string } | { status: 'failed'; error: string }): Promise<EmailDelivery> {
      const [row] = await db.query<DeliveryRow>(
        `UPDATE email_deliveries SET status = $4, message_id = $5, error = $6, updated_at = now()
         WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3 RETURNING *`,
        [...invoiceKeyParams(invoice), outcome.status, outcome.status === 'sent' ? outcome.messageId : null, outcome.status === 'failed' ? outcome.error.slice(0, 500) : null],
      )
      return toDelivery(row!)
    },
    async find(invoice: InvoiceKey): Promise<EmailDelivery | null> {
      const [row] = await db.query<DeliveryRow>('SELECT * FROM email_deliveries WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', invoiceKeyParams(invoice))
      return row ? toDelivery(row) : null
    },
  }
}

export type EmailDeliveryStore = ReturnType<typeof createEmailDeliveryStore>
