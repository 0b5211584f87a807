import { randomUUID } from 'node:crypto'
import { isUuid, type Database } from '../../store/database'
import type { LeadRequest } from './leadWire'

/** An enquiry as kept (migration 25), with what became of its two mails. */
export type Lead = LeadRequest & { id: string; createdAt: Date; operatorNotifiedAt: Date | null; confirmationSentAt: Date | null }

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
  }
}

export type LeadStore = ReturnType<typeof createLeadStore>
