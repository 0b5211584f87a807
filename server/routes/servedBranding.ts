import type { Address } from 'viem'
import type { ServedBranding } from '../../shared/brandingWire'
import { inlineLogoMaxBytes } from '../../shared/inlineLogo'
import type { BrandingStore } from '../store/brandingStore'
import { publicBranding } from './brandingRoutes'

/** The encoded logos kept, by hash: enough for every studio a busy server renders pages for, bounded
 * so that many studios cannot grow it without end. A hash names its bytes, so an entry is never stale. */
const keptLogos = 256

/** The branding of the studio whose vault is the invoice's payee, as the server renders a pay page
 * with it: the public branding, with a small logo's bytes as a data: URL. */
export function servedBrandingReader(store: Pick<BrandingStore, 'findBrandingByVault' | 'getLogo'>, chainId: number) {
  const dataUrls = new Map<string, string>()
  return async (merchant: Address): Promise<ServedBranding | null> => {
    const branding = await store.findBrandingByVault(chainId, merchant)
    const shown = publicBranding(branding)
    const logo = branding?.logo
    if (!shown?.logo || !logo || logo.bytes > inlineLogoMaxBytes) return shown
    let data = dataUrls.get(logo.sha256)
    if (data === undefined) {
      const stored = await store.getLogo(logo.sha256)
      // replaced between the two reads: the link still names the file the page asked about
      if (!stored) return shown
      data = `data:${stored.contentType};base64,${Buffer.from(stored.bytes).toString('base64')}`
      if (dataUrls.size >= keptLogos) dataUrls.delete(dataUrls.keys().next().value!)
      dataUrls.set(logo.sha256, data)
    }
    return { ...shown, logo: { ...shown.logo, data } }
  }
}
