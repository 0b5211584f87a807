import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex, getAddress } from 'viem'
import { demoLogo } from '../../devnet/demoLogo'
import { verifyLogo } from '../../server/branding/verifyLogo'
import { createBrandingStore, type BrandingStore } from '../../server/store/brandingStore'
import { QueryError, type Database } from '../../server/store/database'
import { createStudioStore, type StudioStore } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const randomVault = () => getAddress(bytesToHex(randomBytes(20)))
const logo = verifyLogo(Buffer.from(demoLogo()).toString('base64'))

describe.each(backends)('%s', (backend) => {
  let db: Database
  let branding: BrandingStore
  let studios: StudioStore
  beforeAll(async () => {
    db = await databases.open(backend)
    branding = createBrandingStore(db)
    studios = createStudioStore(db)
  })

  test('default: a studio keeps one branding, replaced whole, found by id and by its vault on its chain, its logo by hash', async () => {
    const vault = randomVault()
    const studio = await studios.createStudio({ vaultAddress: vault, chainId: 31337 })
    expect(await branding.getBranding(studio.id)).toBeNull()
    const stored = await branding.setBranding(studio.id, { brandColor: '#ffff00', logo })
    expect(stored).toEqual({
      brandColor: '#ffff00',
      logo: { contentType: 'image/png', sha256: logo.sha256, width: 96, height: 96, bytes: logo.bytes.length },
      updatedAt: expect.any(Date),
    })
    expect(await branding.getBranding(studio.id)).toEqual(stored)
    expect(await branding.findBrandingByVault(31337, vault)).toEqual(stored)
    expect(await branding.findBrandingByVault(8453, vault)).toBeNull()
    expect(await branding.getLogo(logo.sha256)).toEqual({ bytes: logo.bytes, contentType: 'image/png' })

    const replaced = await branding.setBranding(studio.id, { brandColor: '#0b5cad', logo: null })
    expect(replaced).toMatchObject({ brandColor: '#0b5cad', logo: null })
    expect(await branding.getLogo(logo.sha256)).toBeNull()
    expect(await branding.deleteBranding(studio.id)).toBe(true)
    expect(await branding.deleteBranding(studio.id)).toBe(false)
    expect(await branding.getBranding('not-a-uuid')).toBeNull()
  })

  test('behavior: the schema holds a colour to #rrggbb and a logo to all of its columns or none', async () => {
    const studio = await studios.createStudio({ vaultAddress: randomVault(), chainId: 31337 })
    await expect(db.query("INSERT INTO studio_branding (studio_id, brand_color) VALUES ($1, 'red')", [studio.id])).rejects.toBeInstanceOf(QueryError)
    await expect(db.query("INSERT INTO studio_branding (studio_id, brand_color, logo) VALUES ($1, '#ffffff', $2)", [studio.id, logo.bytes])).rejects.toBeInstanceOf(QueryError)
    expect(await branding.getBranding(studio.id)).toBeNull()
  })
})
