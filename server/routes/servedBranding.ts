import type { Address } from 'viem'
import type { ServedBranding } from '../../shared/brandingWire'
import type { BrandingStore } from '../store/brandingStore'
import { publicBranding } from './brandingRoutes'

/**
 * Logos up to this size are written into the pay page itself. A linked logo is a request of its own
 * before the payer's first screen is whole, and on a slow phone link that is a round trip (on
 * HTTP/1.1 a new connection too, the document's being busy with the scripts): Lighthouse's mobile run
 * put about 150 ms of the page's largest paint on the demo's 1 kB logo. Up to 4 kB the page grows by
 * less than the request costs and stays within one round trip's bytes; larger logos stay links to
 * the file, which is cached for good under its hash.
 */
export const inlineLogoMaxBytes = 4 * 1024

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
