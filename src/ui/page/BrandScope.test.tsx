// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, test } from 'vitest'
import { BrandScope } from './BrandScope'
import { pageBrandingOf } from './pageBrandingOf'
import { readServedBranding, servedDataElementId } from './servedBranding'
import { servedPageElementId, servedPageJson } from './servedPage'

const file = `${'ab'.repeat(32)}.png`

afterEach(cleanup)

describe('pageBrandingOf', () => {
  test('default: a colour and a logo file become the palette and a URL on the origin the page calls', () => {
    expect(pageBrandingOf({ brandColor: '#ffff00', logo: { file, width: 96, height: 40 } }, 'https://checkout.example/')).toEqual({
      palette: { background: '#ffff00', text: '#000000', edge: '#999900' },
      logo: { url: `https://checkout.example/v1/branding/logos/${file}`, width: 96, height: 40 },
    })
    expect(pageBrandingOf({ brandColor: '#0b5cad', logo: null }, '')).toEqual({ palette: { background: '#0b5cad', text: '#ffffff', edge: '#0b5cad' }, logo: null })
  })

  test("behavior: a served answer that is not exactly a colour and a hashed file name is no branding: no CSS, no third party's image", () => {
    for (const raw of [
      null,
      'branding',
      { brandColor: 'red', logo: null },
      { brandColor: '#FFFF00', logo: null },
      { brandColor: '#ffff00;--svc-color-success:red', logo: null },
      { brandColor: 'var(--svc-color-danger)', logo: null },
      { brandColor: '#ffff00', logo: { file: 'https://tracker.example/pixel.png', width: 1, height: 1 } },
      { brandColor: '#ffff00', logo: { file: `../../${file}`, width: 1, height: 1 } },
      { brandColor: '#ffff00', logo: { file: `${'ab'.repeat(32)}.svg`, width: 96, height: 96 } },
      { brandColor: '#ffff00', logo: { file, width: 5000, height: 96 } },
      { brandColor: '#ffff00', logo: { file, width: 96 } },
      { brandColor: '#ffff00' },
    ]) {
      expect(pageBrandingOf(raw, '')).toBeNull()
    }
  })
  test("behavior: a small logo the server wrote into its page is drawn from the page itself; anything but a base64 image of the file's own type is ignored for the file on our origin", () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    expect(pageBrandingOf({ brandColor: '#ffff00', logo: { file, width: 96, height: 40, data: png } }, '')?.logo).toEqual({ url: png, width: 96, height: 40 })
    for (const data of [
      'data:image/jpeg;base64,iVBORw0KGgo=',
      'data:image/svg+xml;base64,PHN2Zy8+',
      'data:image/png,<svg onload=alert(1)>',
      'https://tracker.example/pixel.png',
      `data:image/png;base64,${'A'.repeat(6_000)}`,
      42,
    ]) {
      expect(pageBrandingOf({ brandColor: '#ffff00', logo: { file, width: 96, height: 40, data } }, '')?.logo).toEqual({ url: `/v1/branding/logos/${file}`, width: 96, height: 40 })
    }
  })
})

describe('readServedBranding', () => {
  test('behavior: undefined where the server wrote no branding, null for none or for anything malformed', () => {
    const block = (text: string | null) => ({ getElementById: (id: string) => (text === null || id !== servedPageElementId ? null : ({ textContent: text } as HTMLElement)) })
    const page = { locale: 'en', notFound: true as const }
    expect(servedDataElementId).toBe(servedPageElementId)
    expect(readServedBranding(block(null))).toBeUndefined()
    expect(readServedBranding(block(servedPageJson(page)))).toBeUndefined()
    const none = { ...page, branding: null }
    expect(readServedBranding(block(servedPageJson(none)))).toBeNull()
    expect(readServedBranding(block('{not json'))).toBeNull()
    const served = { ...page, branding: { brandColor: '#6d28d9', logo: { file, width: 96, height: 96 } } }
    expect(readServedBranding(block(servedPageJson(served)))).toEqual({
      palette: { background: '#6d28d9', text: '#ffffff', edge: '#6d28d9' },
      logo: { url: `/v1/branding/logos/${file}`, width: 96, height: 96 },
    })
  })
})

describe('BrandScope', () => {
  test('default: a band with the decorative logo above the page, and the palette as custom properties on the scope', () => {
    const { container } = render(
      <BrandScope branding={pageBrandingOf({ brandColor: '#ffff00', logo: { file, width: 96, height: 40 } }, '')}>
        <main>page</main>
      </BrandScope>,
    )
    const scope = container.firstElementChild as HTMLElement
    expect(scope.className).toBe('svc-brand-scope svc-branded')
    expect(scope.style.getPropertyValue('--svc-brand')).toBe('#ffff00')
    expect(scope.style.getPropertyValue('--svc-brand-text')).toBe('#000000')
    const logo = scope.querySelector('.svc-brand-band img')!
    expect([logo.getAttribute('src'), logo.getAttribute('alt'), logo.getAttribute('width'), logo.getAttribute('height')]).toEqual([`/v1/branding/logos/${file}`, '', '96', '40'])
    expect(scope.lastElementChild!.outerHTML).toBe('<main>page</main>')
  })

  test('behavior: without branding, the same one element around the page and nothing else', () => {
    const { container } = render(
      <BrandScope branding={null}>
        <main>page</main>
      </BrandScope>,
    )
    expect(container.innerHTML).toBe('<div class="svc-brand-scope"><main>page</main></div>')
  })
})
