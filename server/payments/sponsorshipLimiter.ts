import { createHash } from 'node:crypto'
import type { Address, Hex } from 'viem'
import { CodedError } from '../../shared/codedError'
import { lockForTransaction, type Database, type Queryable } from '../store/database'
import { invoiceKeyParams, invoiceKeyString, type InvoiceKey } from '../store/invoiceKey'

/**
 * How many live sponsored operations may exist at once, by what they pay and who asked; 0 lifts a
 * bound. Live: sponsored, its window not yet ended, not replaced by a newer operation with the same
 * EntryPoint, sender and nonce, and not settled (paid, or given up as impossible to include).
 */
export type SponsorshipLimits = { perInvoice: number; perOwner: number; perClient: number }

/** The client key of a request whose address is not known: such requests share no count, since one
 * of them could otherwise use up the per-client room of all the others. */
export const unknownClient = 'unknown'

/** One sponsored operation, as the paymaster will see it: `validUntil` is its window's end (Unix s). */
export type SponsorshipClaim = {
  userOpHash: Hex
  invoice: InvoiceKey
  /** The account that sends the operation (the payer's vault, or a smart wallet). */
  sender: Address
  /** Who controls the sender: one person's sponsorships are counted together whatever they send. */
  owner: Address
  /** The client's address as the rate limiter keys it (an IPv4 address, an IPv6 /64). */
  clientKey: string
  /** The EntryPoint the operation is for, and its whole nonce (key and sequence): the one slot of the
   * sender's that it uses. Only an operation for the same slot can take an older one's place. */
  entryPoint: Address
  nonce: bigint
  validUntil: number
}

export type SponsorshipBound = keyof SponsorshipLimits

export type SponsorshipLimitDetails = { limit: SponsorshipBound; max: number; retryAfterSeconds: number }

/** Answered 429 with Retry-After: a slot frees when the oldest sponsorship in the full count ends. */
export class SponsorshipLimitError extends CodedError<SponsorshipLimitDetails> {
  override name = 'SponsorshipLimitError'
  readonly code = 'SPONSORSHIP_LIMIT'
}

const boundWords: Record<SponsorshipBound, string> = {
  perInvoice: 'this invoice',
  perOwner: 'this wallet',
  perClient: 'this network address',
}

/** Stored hashed: the table needs only to tell clients apart, not to keep their addresses. */
const clientHash = (clientKey: string): string => `0x${createHash('sha256').update(clientKey).digest('hex')}`

/**
 * What bounds the gas an attacker can make the paymaster spend: every operation the paymaster signs
 * for is recorded with its window, and a new one is admitted only while each of its counts (the
 * invoice's, the owner's, the client's) is under its limit. Counted in the database, so every
 * instance agrees; admitted under advisory locks on the three keys (always taken in that order, so two
 * admissions cannot deadlock), so two concurrent requests cannot both take the last slot. Made for
 * any sponsoring route: /prepare, and an ERC-7677 service for wallets that sends its own operations.
 */
export function createSponsorshipLimiter(db: Database, limits: SponsorshipLimits) {
  type Count = { live: number; oldest: Date | null }

  /** Live operations in one count, leaving out the one for the same nonce slot, which `claim` replaces.
   * Another nonce (a later sequence, or another key of the same sender) is another operation that
   * can run: it counts, whatever invoice it is for. */
  async function count(query: Queryable, bound: SponsorshipBound, claim: SponsorshipClaim, now: Date): Promise<Count> {
    const [where, ...key] = {
      perInvoice: ['sp.chain_id = $6 AND sp.registry = $7 AND sp.invoice_id = $8', ...invoiceKeyParams(claim.invoice)],
      perOwner: ['sp.owner = $6', claim.owner.toLowerCase()],
      perClient: ['sp.client_key = $6', clientHash(claim.clientKey)],
    }[bound]
    const params = [now, claim.userOpHash.toLowerCase(), ...slotParams(claim), ...key]
    const [row] = await query.query<Count>(
      `SELECT count(*)::int AS live, min(sp.valid_until) AS oldest FROM sponsorships sp
       WHERE ${where} AND NOT sp.superseded AND sp.valid_until > $1 AND sp.user_op_hash <> $2
         AND NOT (sp.sender = $3 AND sp.entry_point IS NOT DISTINCT FROM $4 AND sp.nonce IS NOT DISTINCT FROM $5)
         AND NOT EXISTS (SELECT 1 FROM payment_submissions s WHERE s.user_op_hash = sp.user_op_hash AND s.state IN ('confirmed', 'lost'))`,
      params,
    )
    return row ?? { live: 0, oldest: null }
  }

  /** The sender's nonce slot, as the rows keep it: the operation replaces only one for the same slot. */
  const slotParams = (claim: SponsorshipClaim) => [claim.sender.toLowerCase(), claim.entryPoint.toLowerCase(), claim.nonce.toString()]

  /** Throws SponsorshipLimitError for the first count that has no room for `claim`. */
  async function assertRoom(query: Queryable, claim: SponsorshipClaim, now: Date): Promise<void> {
    for (const bound of ['perInvoice', 'perOwner', 'perClient'] as const) {
      const max = limits[bound]
      if (max === 0 || (bound === 'perClient' && claim.clientKey === unknownClient)) continue
      const { live, oldest } = await count(query, bound, claim, now)
      if (live < max) continue
      const retryAfterSeconds = Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) - now.getTime()) / 1000))
      throw new SponsorshipLimitError(
        `${boundWords[bound]} already has ${live} sponsored payments in progress (at most ${max}): retry after ${retryAfterSeconds} s, when the oldest ends, or finish one of them`,
        { details: { limit: bound, max, retryAfterSeconds } },
      )
    }
  }

  return {
    limits,

    /** Before any work is spent on the operation: refuses what would surely be refused at admission. */
    async check(claim: Omit<SponsorshipClaim, 'userOpHash' | 'validUntil'>, now: number): Promise<void> {
      await assertRoom(db, { ...claim, userOpHash: `0x${'0'.repeat(64)}`, validUntil: 0 }, new Date(now))
    },

    /**
     * Records the signed operation if every count has room, in one transaction, before it leaves the
     * server: an operation refused here was never handed to anyone. An older operation with the same
     * EntryPoint, sender and nonce no longer counts: at most one of them can ever run. One with
     * another nonce still can, so it keeps its slot in every count.
     */
    async admit(claim: SponsorshipClaim, now: number): Promise<void> {
      const at = new Date(now)
      await db.transaction(async (tx) => {
        if (limits.perInvoice > 0) await lockForTransaction(tx, 'sponsorship', `invoice:${invoiceKeyString(claim.invoice)}`)
        if (limits.perOwner > 0) await lockForTransaction(tx, 'sponsorship', `owner:${claim.owner.toLowerCase()}`)
        if (limits.perClient > 0 && claim.clientKey !== unknownClient) await lockForTransaction(tx, 'sponsorship', `client:${claim.clientKey}`)
        // the sender's slot too: two operations for one slot, asked through different invoices or
        // clients, must not both find the other still live and both replace it
        await lockForTransaction(tx, 'sponsorship', `slot:${slotParams(claim).join(':')}`)
        await assertRoom(tx, claim, at)
        const hash = claim.userOpHash.toLowerCase()
        const slot = slotParams(claim)
        await tx.query(
          `INSERT INTO sponsorships (user_op_hash, chain_id, registry, invoice_id, sender, entry_point, nonce, owner, client_key, valid_until)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (user_op_hash) DO NOTHING`,
          [hash, ...invoiceKeyParams(claim.invoice), ...slot, claim.owner.toLowerCase(), clientHash(claim.clientKey), new Date(claim.validUntil * 1000)],
        )
        await tx.query(
          `UPDATE sponsorships SET superseded = true
           WHERE sender = $2 AND entry_point = $3 AND nonce = $4 AND user_op_hash <> $1 AND NOT superseded`,
          [hash, ...slot],
        )
      })
    },

    /** Deletes up to `limit` sponsorships whose window ended before `endedBefore`: they count no more. */
    async prune(endedBefore: Date, limit = 1_000): Promise<number> {
      const [row] = await db.query<{ pruned: number }>(
        `WITH pruned AS (
           DELETE FROM sponsorships WHERE user_op_hash IN (
             SELECT user_op_hash FROM sponsorships WHERE valid_until < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING 1)
         SELECT count(*)::int AS pruned FROM pruned`,
        [endedBefore, limit],
      )
      return row?.pruned ?? 0
    },
  }
}

export type SponsorshipLimiter = ReturnType<typeof createSponsorshipLimiter>
