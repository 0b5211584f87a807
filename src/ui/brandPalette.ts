import { contrastRatio, hexColour } from './contrastRatio'

/** The colours the page draws a studio's brand colour with, each readable against what it meets. */
export type BrandPalette = {
  /** The merchant's colour itself: the band's and the primary button's background. */
  background: string
  /** Black or white, whichever contrasts more with it: never under 4.58:1 (WCAG AA asks 4.5:1). */
  text: string
  /** The button's and the band's edge: the colour itself where it stands 3:1 against the white
   * surface, else the same hue darkened until it does (WCAG 1.4.11), so that a yellow button is
   * still seen as a button. */
  edge: string
}

const white = '#ffffff'
const black = '#000000'

/** `color` scaled toward black by `factor` (1 keeps it, 0 is black). */
function darkened(color: string, factor: number): string {
  return hexColour([1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16) * factor))
}

/**
 * The palette for a brand colour (`#rrggbb`, lower case). Text on it is black or white: one of the two
 * always passes AA, whatever the colour (the worst case, a mid grey, still gives 4.58:1), so the
 * merchant's colour is shown as chosen rather than shifted.
 */
export function brandPalette(color: string): BrandPalette {
  const text = contrastRatio(color, white) >= contrastRatio(color, black) ? white : black
  let edge = color
  for (let factor = 1; contrastRatio(edge, white) < 3; factor -= 0.02) edge = darkened(color, Math.max(0, factor))
  return { background: color, text, edge }
}

/** The palette as the CSS custom properties the page's branded rules read (src/ui/branding.css): one
 * string, so that the server can allow exactly this style attribute by its hash. */
export function brandStyle(palette: BrandPalette): string {
  return `--svc-brand:${palette.background};--svc-brand-text:${palette.text};--svc-brand-edge:${palette.edge}`
}
