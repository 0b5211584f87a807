import type { Address } from 'viem'
import type { LogoType } from '../../shared/brandingWire'
import { isUuid, type Database } from './database'

export type StoredLogo = { contentType: LogoType; sha256: string; width: number; height: number; bytes: number }

/** A studio's colour and logo, as kept; the logo's bytes are read only when it is served. */
export type StudioBranding = { brandColor: string; logo: StoredLogo | null; updatedAt: Date }

export type BrandingToStore = { brandColor: string; logo: { bytes: Uint8Array; contentType: LogoType; sha256: string; width: number; height: number } | null }

type BrandingRow = {
  brand_color: string
  logo_type: LogoType | null
  logo_sha256: string | null
  logo_width: number | null
  logo_height: number | null
  logo_bytes: number | null
  updated_at: Date
}

const columns = 'brand_color, logo_type, logo_sha256, logo_width, logo_height, octet_length(logo) AS logo_bytes, updated_at'

function toBranding(row: BrandingRow): StudioBranding {
  const logo =
    row.logo_type && row.logo_sha256 && row.logo_width && row.logo_height && row.logo_bytes
      ? { contentType: row.logo_type, sha256: row.logo_sha256, width: row.logo_width, height: row.logo_height, bytes: Number(row.logo_bytes) }
      : null
  return { brandColor: row.brand_color, logo, updatedAt: row.updated_at }
}

/** Studios' branding (migration 10): set, read and removed by the studio's own merchant routes, read
 * by vault for its payers' pages, and its logos read by their hash to be served. */
export function createBrandingStore(db: Database) {
  return {
    async getBranding(studioId: string): Promise<StudioBranding | null> {
      if (!isUuid(studioId)) return null
      const [row] = await db.query<BrandingRow>(`SELECT ${columns} FROM studio_branding WHERE studio_id = $1`, [studioId])
      return row ? toBranding(row) : null
    },

    async setBranding(studioId: string, { brandColor, logo }: BrandingToStore): Promise<StudioBranding> {
      const [row] = await db.query<BrandingRow>(
        `INSERT INTO studio_branding (studio_id, brand_color, logo, logo_type, logo_sha256, logo_width, logo_height, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, statement_timestamp())
         ON CONFLICT (studio_id) DO UPDATE SET brand_color = EXCLUDED.brand_color, logo = EXCLUDED.logo, logo_type = EXCLUDED.logo_type,
           logo_sha256 = EXCLUDED.logo_sha256, logo_width = EXCLUDED.logo_width, logo_height = EXCLUDED.logo_height, updated_at = EXCLUDED.updated_at
         RETURNING ${columns}`,
        [studioId, brandColor, logo?.bytes ?? null, logo?.contentType ?? null, logo?.sha256 ?? null, logo?.width ?? null, logo?.height ?? null],
      )
      return toBranding(row!)
    },

    /** Whether there was any to remove. */
    async deleteBranding(studioId: string): Promise<boolean> {
      if (!isUuid(studioId)) return false
      const rows = await db.query<{ studio_id: string }>('DELETE FROM studio_branding WHERE studio_id = $1 RETURNING studio_id', [studioId])
      return rows.length > 0
    },

    /** The branding of the studio whose vault this is on this chain: the payee of an invoice. */
    async findBrandingByVault(chainId: number, vaultAddress: Address): Promise<StudioBranding | null> {
      const [row] = await db.query<BrandingRow>(
        `SELECT ${columns} FROM studio_branding WHERE studio_id = (SELECT id FROM studios WHERE chain_id = $1 AND vault_address = $2)`,
        [chainId, vaultAddress.toLowerCase()],
      )
      return row ? toBranding(row) : null
    },

    /** A logo's bytes by the hash its URL names; any studio's copy of the same bytes will do. */
    async getLogo(sha256: string): Promise<{ bytes: Uint8Array; contentType: LogoType } | null> {
      if (!/^[0-9a-f]{64}$/.test(sha256)) return null
      const [row] = await db.query<{ logo: Uint8Array; logo_type: LogoType }>('SELECT logo, logo_type FROM studio_branding WHERE logo_sha256 = $1 LIMIT 1', [sha256])
      // node-postgres answers a Buffer, PGlite a Uint8Array: one type either way
      return row ? { bytes: new Uint8Array(row.logo), contentType: row.logo_type } : null
    },
  }
}

export type BrandingStore = ReturnType<typeof createBrandingStore>
