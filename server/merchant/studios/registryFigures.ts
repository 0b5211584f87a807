import { getAddress, type Address } from 'viem'
import type { Database } from '../../store/database'

/** One merchant's invoices by status, from the index: every row counted, none capped. */
export type InvoiceStats = {
  totalCount: number
  pendingCount: number
  paidCount: number
  canceledCount: number
  /** Base units: the invoice amounts of Paid invoices (gross), of Issued ones, and the Paid ones' fee, net and refunds. */
  totalPaidAmount: bigint
  totalPendingAmount: bigint
  totalFees: bigint
  totalNetAmount: bigint
  totalRefunded: bigint
}

/** Sums of Paid invoices in one token, base units. */
export type TokenVolume = { token: Address; paidCount: number; paidAmount: bigint; fees: bigint; netAmount: bigint; refunded: bigint }

export type RegistryTotals = {
  invoiceCount: number
  issuedCount: number
  paidCount: number
  canceledCount: number
  merchants: number
  payers: number
  volumes: TokenVolume[]
}

export type AccountFigures = {
  asMerchant: { invoiceCount: number; issuedCount: number; paidCount: number; canceledCount: number; volumes: TokenVolume[] }
  asPayer: { paidCount: number; firstPaidAt: bigint | null; lastPaidAt: bigint | null; volumes: TokenVolume[] }
}

type CountRow = { total: string; issued: string; paid: string; canceled: string }
type VolumeRow = { token: string; paid_count: string; paid_amount: string; fees: string; net: string; refunded: string }

const counts = `count(*)::text AS total, count(*) FILTER (WHERE status = 'Issued')::text AS issued,
  count(*) FILTER (WHERE status = 'Paid')::text AS paid, count(*) FILTER (WHERE status = 'Canceled')::text AS canceled`

// settled_fee and settled_net are the InvoicePaid event's; a row without them (see paymentSettlement.ts)
// counts its amount as net and no fee, as SPEC 2.14's fall-back does
const volumes = `SELECT token, count(*)::text AS paid_count, COALESCE(sum(amount), 0)::text AS paid_amount,
  COALESCE(sum(COALESCE(settled_fee, 0)), 0)::text AS fees, COALESCE(sum(COALESCE(settled_net, amount)), 0)::text AS net,
  COALESCE(sum(refunded_amount), 0)::text AS refunded FROM invoice_index`

const toVolume = (row: VolumeRow): TokenVolume => ({
  token: getAddress(row.token),
  paidCount: Number(row.paid_count),
  paidAmount: BigInt(row.paid_amount),
  fees: BigInt(row.fees),
  netAmount: BigInt(row.net),
  refunded: BigInt(row.refunded),
})

/**
 * Figures summed over the invoice index (migration 14) by the database, exactly (numeric): one
 * studio's statistics, the whole registry's, and one address's as merchant and as payer. They are as
 * current as the index (its indexed block is given with each).
 */
export function createRegistryFigures(db: Database, { chainId, registry }: { chainId: number; registry: Address }) {
  const registryKey = registry.toLowerCase()
  const scope = 'chain_id = $1 AND registry = $2'

  return {
    async invoiceStats(merchant: Address): Promise<InvoiceStats> {
      const [row] = await db.query<CountRow & { paid_amount: string; pending_amount: string; fees: string; net: string; refunded: string }>(
        `SELECT ${counts},
           COALESCE(sum(amount) FILTER (WHERE status = 'Paid'), 0)::text AS paid_amount,
           COALESCE(sum(amount) FILTER (WHERE status = 'Issued'), 0)::text AS pending_amount,
           COALESCE(sum(COALESCE(settled_fee, 0)) FILTER (WHERE status = 'Paid'), 0)::text AS fees,
           COALESCE(sum(COALESCE(settled_net, amount)) FILTER (WHERE status = 'Paid'), 0)::text AS net,
           COALESCE(sum(refunded_amount) FILTER (WHERE status = 'Paid'), 0)::text AS refunded
         FROM invoice_index WHERE ${scope} AND merchant = $3`,
        [chainId, registryKey, merchant.toLowerCase()],
      )
      return {
        totalCount: Number(row!.total),
        pendingCount: Number(row!.issued),
        paidCount: Number(row!.paid),
        canceledCount: Number(row!.canceled),
        totalPaidAmount: BigInt(row!.paid_amount),
        totalPendingAmount: BigInt(row!.pending_amount),
        totalFees: BigInt(row!.fees),
        totalNetAmount: BigInt(row!.net),
        totalRefunded: BigInt(row!.refunded),
      }
    },

    async registryTotals(): Promise<RegistryTotals> {
      const [[row], volumeRows] = await Promise.all([
        db.query<CountRow & { merchants: string; payers: string }>(
          `SELECT ${counts}, count(DISTINCT merchant)::text AS merchants, count(DISTINCT payer)::text AS payers FROM invoice_index WHERE ${scope}`,
          [chainId, registryKey],
        ),
        db.query<VolumeRow>(`${volumes} WHERE ${scope} AND status = 'Paid' GROUP BY token ORDER BY token`, [chainId, registryKey]),
      ])
      return {
        invoiceCount: Number(row!.total),
        issuedCount: Number(row!.issued),
        paidCount: Number(row!.paid),
        canceledCount: Number(row!.canceled),
        merchants: Number(row!.merchants),
        payers: Number(row!.payers),
        volumes: volumeRows.map(toVolume),
      }
    },

    async accountFigures(address: Address): Promise<AccountFigures> {
      const key = address.toLowerCase()
      const [[merchant], merchantVolumes, [payer], payerVolumes] = await Promise.all([
        db.query<CountRow>(`SELECT ${counts} FROM invoice_index WHERE ${scope} AND merchant = $3`, [chainId, registryKey, key]),
        db.query<VolumeRow>(`${volumes} WHERE ${scope} AND merchant = $3 AND status = 'Paid' GROUP BY token ORDER BY token`, [chainId, registryKey, key]),
        db.query<{ paid: string; first_paid: string | null; last_paid: string | null }>(
          `SELECT count(*)::text AS paid, min(paid_at)::text AS first_paid, max(paid_at)::text AS last_paid
           FROM invoice_index WHERE ${scope} AND payer = $3 AND status = 'Paid'`,
          [chainId, registryKey, key],
        ),
        db.query<VolumeRow>(`${volumes} WHERE ${scope} AND payer = $3 AND status = 'Paid' GROUP BY token ORDER BY token`, [chainId, registryKey, key]),
      ])
      return {
        asMerchant: {
          invoiceCount: Number(merchant!.total),
          issuedCount: Number(merchant!.issued),
          paidCount: Number(merchant!.paid),
          canceledCount: Number(merchant!.canceled),
          volumes: merchantVolumes.map(toVolume),
        },
        asPayer: {
          paidCount: Number(payer!.paid),
          firstPaidAt: payer!.first_paid === null ? null : BigInt(payer!.first_paid),
          lastPaidAt: payer!.last_paid === null ? null : BigInt(payer!.last_paid),
          volumes: payerVolumes.map(toVolume),
        },
      }
    },
  }
}

export type RegistryFigures = ReturnType<typeof createRegistryFigures>
