/**
 * Logos up to this size are written into the pay page itself (server/routes/servedBranding.ts). A
 * linked logo is a request of its own before the payer's first screen is whole, and on a slow phone
 * link that is a round trip (on HTTP/1.1 a new connection too, the document's being busy with the
 * scripts): Lighthouse's mobile run put about 150 ms of the page's largest paint on the demo's 1 kB
 * logo. Up to 4 kB the page grows by less than the request costs and stays within one round trip's
 * bytes; larger logos stay links to the file, which is cached for good under its hash.
 */
export const inlineLogoMaxBytes = 4 * 1024

/** A logo file's extension to its type: shared/brandingWire.ts's logoExtensions read backwards,
 * spelled here without zod, which the page's first chunk does not carry. */
export const logoTypeOfExtension: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' }

/** The longest `data:` URL of an inlined logo: the longest type's prefix and the base64 of its bytes. */
export const inlineLogoMaxLength = 'data:image/webp;base64,'.length + Math.ceil(inlineLogoMaxBytes / 3) * 4
