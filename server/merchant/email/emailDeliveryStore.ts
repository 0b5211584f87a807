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
    /** Queues the invoice's mail again, as the merchant asked (send-email): one more attempt. */
    async startAgain({ studioId, invoice, customerId, recipient }: DeliveryStart): Promise<EmailDelivery> {
      const [row] = await db.query<DeliveryRow>(
        `INSERT INTO email_deliveries (studio_id, chain_id, registry, invoice_id, customer_id, recipient, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued')
         ON CONFLICT (chain_id, registry, invoice_id) DO UPDATE SET
           customer_id = EXCLUDED.customer_id, recipient = EXCLUDED.recipient, status = 'queued', message_id = NULL, error = NULL,
           attempts = email_deliveries.attempts + 1, updated_at = now()
         RETURNING *`,
        [studioId, ...invoiceKeyParams(invoice), customerId, recipient],
      )
      return toDelivery(row!)
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
