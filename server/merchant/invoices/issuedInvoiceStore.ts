import type { Address, Hex } from 'viem'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { canonicalJson } from '../../../shared/metadataHash'
import type { Database } from '../../store/database'
import type { MetadataCipher } from '../../store/metadataCipher'
import { StoreError } from '../../store/storeError'

/** A server-signed issuance as it was sent (migration 13). */
export type IssuedInvoice = {
  userOpHash: Hex
  studioId: string
  chainId: number
  registry: Address
  customerId: string | null
  invoiceNumber: string
  amount: bigint
  dueAt: bigint
  metaHash: Hex
  sendEmail: boolean
  /** Present until finalized: afterwards the invoice's metadata store holds it. */
  pendingMetadata: InvoiceMetadata | null
  invoiceId: bigint | null
  txHash: Hex | null
  issuedAt: bigint | null
  finalizedAt: Date | null
}

export type NewIssuedInvoice = Pick<IssuedInvoice, 'userOpHash' | 'studioId' | 'chainId' | 'registry' | 'customerId' | 'invoiceNumber' | 'amount' | 'dueAt' | 'metaHash' | 'sendEmail'> & {
  metadata: InvoiceMetadata
}

export class IssuedInvoiceNotFoundError extends StoreError {
  override name = 'IssuedInvoiceNotFoundError'
  readonly code = 'ISSUED_INVOICE_NOT_FOUND'
}

type Row = {
  user_op_hash: string
  studio_id: string
  chain_id: number
  registry: string
  customer_id: string | null
  invoice_number: string
  amount: string
  due_at: string
  meta_hash: string
  send_email: boolean
  pending_metadata: Uint8Array | null
  pending_metadata_iv: Uint8Array | null
  invoice_id: string | null
  tx_hash: string | null
  issued_at: string | null
  finalized_at: Date | null
}

/** The sealed record names the operation: a ciphertext moved to another row does not open. */
const pendingMetadataContext = (userOpHash: Hex) => `svc-checkout/pending-issuance/v1/${userOpHash.toLowerCase()}`

/**
 * Server-signed issuances, from before their operation is sent to after their invoice is finalized.
 * The metadata an issuance commits to (its metaHash) is sealed here until the invoice's id is known,
 * so a request that answered 202, or a process killed after sending, loses nothing.
 */
export function createIssuedInvoiceStore(db: Database, cipher: MetadataCipher) {
  function toIssued(row: Row): IssuedInvoice {
    const userOpHash = row.user_op_hash as Hex
    const sealed = row.pending_metadata && row.pending_metadata_iv ? { ciphertext: row.pending_metadata, iv: row.pending_metadata_iv } : null
    return {
      userOpHash,
      studioId: row.studio_id,
      chainId: row.chain_id,
      registry: row.registry as Address,
      customerId: row.customer_id,
      invoiceNumber: row.invoice_number,
      amount: BigInt(row.amount),
      dueAt: BigInt(row.due_at),
      metaHash: row.meta_hash as Hex,
      sendEmail: row.send_email,
      pendingMetadata: sealed ? (JSON.parse(Buffer.from(cipher.open(sealed, pendingMetadataContext(userOpHash))).toString('utf8')) as InvoiceMetadata) : null,
      invoiceId: row.invoice_id === null ? null : BigInt(row.invoice_id),
      txHash: row.tx_hash as Hex | null,
      issuedAt: row.issued_at === null ? null : BigInt(row.issued_at),
      finalizedAt: row.finalized_at,
    }
  }

  return {
    /** Kept before the operation leaves; the same operation recorded twice is one record. */
    async recordSent(issued: NewIssuedInvoice): Promise<void> {
      const hash = issued.userOpHash.toLowerCase() as Hex
      const { ciphertext, iv } = cipher.seal(Buffer.from(canonicalJson(issued.metadata)), pendingMetadataContext(hash))
      await db.query(
        `INSERT INTO issued_invoices (user_op_hash, studio_id, chain_id, registry, customer_id, invoice_number, amount, due_at, meta_hash, send_email, pending_metadata, pending_metadata_iv)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (user_op_hash) DO NOTHING`,
        [
          hash,
          issued.studioId,
          issued.chainId,
          issued.registry.toLowerCase(),
          issued.customerId,
          issued.invoiceNumber,
          issued.amount.toString(),
          issued.dueAt.toString(),
          issued.metaHash.toLowerCase(),
          issued.sendEmail,
          ciphertext,
          iv,
        ],
      )
    },

    async find(userOpHash: Hex): Promise<IssuedInvoice | null> {
      const [row] = await db.query<Row>('SELECT * FROM issued_invoices WHERE user_op_hash = $1', [userOpHash.toLowerCase()])
      return row ? toIssued(row) : null
    },

    /** The issuance of an invoice, by its on-chain id (the customer it was issued to, its email choice). */
    async findByInvoice(chainId: number, registry: Address, invoiceId: bigint): Promise<IssuedInvoice | null> {
      const [row] = await db.query<Row>('SELECT * FROM issued_invoices WHERE chain_id = $1 AND registry = $2 AND invoice_id = $3', [
        chainId,
        registry.toLowerCase(),
        invoiceId.toString(),
      ])
      return row ? toIssued(row) : null
    },

    /** The invoice is on-chain and its metadata stored: the sealed copy is no longer needed. */
    async markFinalized(userOpHash: Hex, { invoiceId, txHash, issuedAt }: { invoiceId: bigint; txHash: Hex; issuedAt: bigint }): Promise<void> {
      const rows = await db.query(
        `UPDATE issued_invoices SET invoice_id = $2, tx_hash = $3, issued_at = $4, finalized_at = COALESCE(finalized_at, statement_timestamp()),
           pending_metadata = NULL, pending_metadata_iv = NULL
         WHERE user_op_hash = $1 RETURNING user_op_hash`,
        [userOpHash.toLowerCase(), invoiceId.toString(), txHash.toLowerCase(), issuedAt.toString()],
      )
      if (rows.length === 0) throw new IssuedInvoiceNotFoundError(`no issuance was recorded for operation ${userOpHash}`)
    },
  }
}

export type IssuedInvoiceStore = ReturnType<typeof createIssuedInvoiceStore>
