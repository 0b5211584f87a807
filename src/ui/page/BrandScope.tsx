import type { ComponentChildren } from 'preact'
import { brandStyle } from '../brandPalette'
import type { PageBranding } from './pageBrandingOf'

export type BrandScopeProps = { branding: PageBranding | null; children: ComponentChildren }

/**
 * The payee's colour and logo around the page: a band above it and the primary button, through CSS
 * custom properties that only those rules read (src/ui/branding.css). Presentation, never a trust
 * signal: the band says nothing, the logo is decorative (`alt=""`: the payee's name is shown where it
 * is checked), and nothing the page verifies reads the brand colour. Always one element, branded or
 * not, so the page below keeps its place when branding arrives.
 */
export function BrandScope({ branding, children }: BrandScopeProps) {
  const style = branding ? brandStyle(branding.palette) : undefined
  return (
    <div
      class={branding ? 'svc-brand-scope svc-branded' : 'svc-brand-scope'}
      style={style}
      // Hydration leaves attributes as the server wrote them, and a page whose policy did not allow this
      // style would show none: set through CSSOM, which a policy never blocks, the colour is there either way.
      ref={(element) => {
        if (element && style !== undefined && element.style.getPropertyValue('--svc-brand') !== branding!.palette.background) element.style.cssText = style
      }}
    >
      {branding ? (
        <div class="svc-brand-band">
          <div class="svc-brand-inner">
            {branding.logo ? <img class="svc-brand-logo" src={branding.logo.url} width={branding.logo.width} height={branding.logo.height} alt="" /> : null}
          </div>
        </div>
      ) : null}
      {children}
    </div>
  )
}
