import { isUuid, type Database } from '../../store/database'
import type { BusinessProfile } from './businessProfile'

export type StoredBusinessProfile = BusinessProfile & { updatedAt: Date }

type ProfileRow = {
  type: 'entity' | 'person' | null
  legal_name: string | null
  email: string | null
  street: string | null
  city: string | null
  postal: string | null
  country: string | null
  registration_number: string | null
  vat_number: string | null
  trade_name: string | null
  tax_id: string | null
  updated_at: Date
}

function toProfile(row: ProfileRow): StoredBusinessProfile {
  return {
    type: row.type,
    legalName: row.legal_name,
    email: row.email,
    address: { street: row.street, city: row.city, postal: row.postal, country: row.country },
    registrationNumber: row.registration_number,
    vatNumber: row.vat_number,
    tradeName: row.trade_name,
    taxId: row.tax_id,
    updatedAt: row.updated_at,
  }
}

const columns = 'type, legal_name, email, street, city, postal, country, registration_number, vat_number, trade_name, tax_id, updated_at'

/** Studios' business profiles (migration 12). A put replaces the whole profile, as SPEC 2.2's PUT
 * does: a field left out is gone, not kept. Whether it is complete is businessProfile.ts's rule. */
export function createBusinessProfileStore(db: Database) {
  return {
    async getBusinessProfile(studioId: string): Promise<StoredBusinessProfile | null> {
      if (!isUuid(studioId)) return null
      const [row] = await db.query<ProfileRow>(`SELECT ${columns} FROM business_profiles WHERE studio_id = $1`, [studioId])
      return row ? toProfile(row) : null
    },

    async putBusinessProfile(studioId: string, profile: BusinessProfile): Promise<StoredBusinessProfile> {
      const { address } = profile
      const [row] = await db.query<ProfileRow>(
        `INSERT INTO business_profiles (studio_id, type, legal_name, email, street, city, postal, country, registration_number, vat_number, trade_name, tax_id, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, statement_timestamp())
         ON CONFLICT (studio_id) DO UPDATE SET type = EXCLUDED.type, legal_name = EXCLUDED.legal_name, email = EXCLUDED.email,
           street = EXCLUDED.street, city = EXCLUDED.city, postal = EXCLUDED.postal, country = EXCLUDED.country,
           registration_number = EXCLUDED.registration_number, vat_number = EXCLUDED.vat_number, trade_name = EXCLUDED.trade_name,
           tax_id = EXCLUDED.tax_id, updated_at = EXCLUDED.updated_at
         RETURNING ${columns}`,
        [
          studioId,
          profile.type,
          profile.legalName,
          profile.email,
          address.street,
          address.city,
          address.postal,
          address.country,
          profile.registrationNumber,
          profile.vatNumber,
          profile.tradeName,
          profile.taxId,
        ],
      )
      return toProfile(row!)
    },
  }
}

export type BusinessProfileStore = ReturnType<typeof createBusinessProfileStore>
