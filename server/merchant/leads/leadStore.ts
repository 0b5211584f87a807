import { randomUUID } from 'node:crypto'
import { isUuid, type Database } from '../../store/database'
import { confirmationRecipientHash } from './confirmationRecipient'
import type { LeadRequest } from './leadWire'

/** An enquiry as kept (migration 25), with what became of its two mails: the confirmation may be
 * withheld, its address having had one within 24 hours (migration 29). */
export type Lead = LeadRequest & { id: string; createdAt: Date; operatorNotifiedAt: Date | null; confirmationSentAt: Date | null; confirmationWithheldAt: Date | null }

/** A confirmation's place in its address's 24 hours, taken before sending: given back if the mail
 * fails. Its time is the database's text, exact to the microsecond, which a Date would round. */
export type ConfirmationClaim = { recipientHash: string; sentAt: string }

/** How long an address waits between two confirmations, whoever sends the enquiries. */
const confirmationInterval = '24 hours'

type LeadRow = {
  id: string
  first_name: string
  last_name: string
  email: string
  company: string
  role: string
  use_case_description: string
  platform_type: LeadRequest['platformType']
  monthly_volume: LeadRequest['monthlyVolume']
  timeline: LeadRequest['timeline']
  referral_source: string | null
  source_page: string | null
  additional_notes: string | null
  source_plan: string | null
  created_at: Date
  operator_notified_at: Date | null
  confirmation_sent_at: Date | null
  confirmation_withheld_at: Date | null
}

function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    company: row.company,
    role: row.role,
    useCaseDescription: row.use_case_description,
    platformType: row.platform_type,
    monthlyVolume: row.monthly_volume,
    timeline: row.timeline,
    ...(row.referral_source === null ? {} : { referralSource: row.referral_source }),
    ...(row.source_page === null ? {} : { sourcePage: row.source_page }),
    ...(row.additional_notes === null ? {} : { additionalNotes: row.additional_notes }),
    ...(row.source_plan === null ? {} : { sourcePlan: row.source_plan }),
    createdAt: row.created_at,
    operatorNotifiedAt: row.operator_notified_at,
    confirmationSentAt: row.confirmation_sent_at,
    confirmationWithheldAt: row.confirmation_withheld_at,
  }
}

/** Enquiries from the public form (SPEC 4.7): kept before any mail is tried, so a mail that fails
 * loses nothing; each mail's success is written beside it. */
export function createLeadStore(db: Database) {
  return {
    async createLead(lead: LeadRequest): Promise<string> {
      const id = randomUUID()
      await db.query(
        `INSERT INTO leads (id, first_name, last_name, email, company, role, use_case_description, platform_type, monthly_volume, timeline,
           referral_source, source_page, additional_notes, source_plan)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          id,
          lead.firstName,
          lead.lastName,
          lead.email,
          lead.company,
          lead.role,
          lead.useCaseDescription,
          lead.platformType,
          lead.monthlyVolume,
          lead.timeline,
          lead.referralSource || null,
          lead.sourcePage || null,
          lead.additionalNotes || null,
          lead.sourcePlan || null,
        ],
      )
      return id
    },

    async getLead(id: string): Promise<Lead | null> {
      if (!isUuid(id)) return null
      const [row] = await db.query<LeadRow>('SELECT * FROM leads WHERE id = $1', [id])
      return row ? toLead(row) : null
    },

    async markMailed(id: string, mail: 'operator' | 'confirmation'): Promise<void> {
      const column = mail === 'operator' ? 'operator_notified_at' : 'confirmation_sent_at'
      await db.query(`UPDATE leads SET ${column} = now() WHERE id = $1`, [id])
    },

    /**
     * Takes the one confirmation `email`'s inbox may have in 24 hours, in one statement so that
     * enquiries sent at once from many clients take it once; null when it is already taken.
     */
    async claimConfirmation(email: string): Promise<ConfirmationClaim | null> {
      const recipientHash = confirmationRecipientHash(email)
      const [row] = await db.query<{ sent_at: string }>(
        `INSERT INTO lead_confirmations (recipient_hash, sent_at) VALUES ($1, statement_timestamp())
         ON CONFLICT (recipient_hash) DO UPDATE SET sent_at = EXCLUDED.sent_at
           WHERE lead_confirmations.sent_at <= statement_timestamp() - interval '${confirmationInterval}'
         RETURNING sent_at::text`,
        [recipientHash],
      )
      return row ? { recipientHash, sentAt: row.sent_at } : null
    },

    /** Gives back a claim whose mail did not go: the next enquiry for the address is confirmed. */
    async releaseConfirmation(claim: ConfirmationClaim): Promise<void> {
      await db.query('DELETE FROM lead_confirmations WHERE recipient_hash = $1 AND sent_at = $2::timestamptz', [claim.recipientHash, claim.sentAt])
    },

    /** The enquiry's confirmation was not sent: its address had one within the 24 hours. */
    async confirmationWithheld(id: string): Promise<void> {
      await db.query('UPDATE leads SET confirmation_withheld_at = now() WHERE id = $1', [id])
    },
  }
}

export type LeadStore = ReturnType<typeof createLeadStore>
