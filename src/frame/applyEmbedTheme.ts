import { contrastRatio, hexColour } from '../ui/contrastRatio'
import { embedTheme } from './embedTheme'

/** A colour as the browser computes it: red, green and blue from 0 to 255, and its opacity from 0 to 1. */
export type Rgba = readonly [number, number, number, number]

type Under = 'bg' | 'surface' | 'accent' | 'success-bg' | 'warning-bg' | 'danger-bg'

/**
 * What each colour is drawn on, and the contrast WCAG 2.2 AA asks of it there: 4.5:1 for text, 3:1
 * for the focus ring. The status colours are the checkout's own (a theme cannot set them), but they
 * are drawn on the theme's surface too: a step done, a figure not yet read from the chain.
 */
const drawnOn: readonly (readonly [string, Under, number])[] = [
  ['text', 'surface', 4.5],
  ['text', 'bg', 4.5],
  ['muted', 'surface', 4.5],
  ['muted', 'bg', 4.5],
  ['accent', 'surface', 4.5],
  ['accent', 'bg', 4.5],
  ['accent-text', 'accent', 4.5],
  ['success', 'surface', 4.5],
  ['success', 'success-bg', 4.5],
  ['warning', 'surface', 4.5],
  ['warning', 'warning-bg', 4.5],
  ['danger', 'danger-bg', 4.5],
  ['focus', 'surface', 3],
  ['focus', 'bg', 3],
  ['focus', 'success-bg', 3],
  ['focus', 'warning-bg', 3],
  ['focus', 'danger-bg', 3],
]

/**
 * The checkout's status colours where a theme's surface is dark: the same meanings (green done, amber
 * unconfirmed, red refused), light on dark. Still the checkout's, never the theme's.
 */
export const statusColoursOnDark: Record<string, string> = {
  '--svc-color-success': '#4ade80',
  '--svc-color-success-bg': '#0d2818',
  '--svc-color-warning': '#fbbf24',
  '--svc-color-warning-bg': '#2b1d05',
  '--svc-color-danger': '#f87171',
  '--svc-color-danger-bg': '#3b0d12',
}

/** `rgb()`/`rgba()` and `color(srgb …)`, the forms a browser computes sRGB colours to; anything else is unread. */
export function parseComputedColour(value: string): Rgba | null {
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(value)
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])]
  const srgb = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)$/.exec(value)
  if (!srgb) return null
  const channel = (text: string) => Math.min(255, Math.max(0, Number(text) * 255))
  return [channel(srgb[1]!), channel(srgb[2]!), channel(srgb[3]!), srgb[4] === undefined ? 1 : Number(srgb[4])]
}

/** `top` painted over the opaque `under`: what the eye meets where a colour is translucent. */
function over(top: Rgba, under: Rgba): Rgba {
  const mix = (at: 0 | 1 | 2) => top[at] * top[3] + under[at] * (1 - top[3])
  return [mix(0), mix(1), mix(2), 1]
}

/**
 * Where `read(name)` (the computed value of `--svc-color-<name>`) leaves a text unreadable on what it
 * is drawn on, each in words a merchant's developer can act on; empty when every pair passes. The page
 * and card backgrounds must be opaque: what would show through them is the framing page's to paint.
 */
export function unreadablePairs(read: (name: string) => Rgba | null): string[] {
  const colours = new Map([...new Set(drawnOn.flatMap(([name, under]) => [name, under]))].map((name) => [name, read(name)]))
  const unread = [...colours].filter(([, value]) => !value).map(([name]) => name)
  if (unread.length > 0) return unread.map((name) => `--svc-color-${name} is a colour this check cannot read: use #rrggbb, rgb() or hsl()`)
  const colour = (name: string) => colours.get(name)!
  const translucent = (['bg', 'surface'] as const).filter((name) => colour(name)[3] < 1)
  if (translucent.length > 0) return translucent.map((name) => `--svc-color-${name} is translucent: the framing page would show through it`)
  const bg = colour('bg')
  const surface = colour('surface')
  const on = (name: Under) => over(colour(name), surface)
  const under = { bg, surface, accent: on('accent'), 'success-bg': on('success-bg'), 'warning-bg': on('warning-bg'), 'danger-bg': on('danger-bg') }
  const problems: string[] = []
  for (const [name, on, wanted] of drawnOn) {
    const ratio = contrastRatio(hexColour(over(colour(name), under[on])), hexColour(under[on]))
    if (ratio < wanted) problems.push(`--svc-color-${name} on --svc-color-${on} is ${ratio.toFixed(2)}:1, under ${wanted}:1`)
  }
  return problems
}

/**
 * A theme's colours that are not plain colours: a keyword that takes another property's value
 * (`currentcolor`, `inherit`), or something that is no colour at all (a gradient). Read through the
 * probe's `color`, such a value would borrow the text colour, while the button painted with it as a
 * background would be transparent: the check would pass what the payer cannot read.
 */
function notColours(theme: Record<string, string>): string[] {
  return Object.entries(theme)
    .filter(([name, value]) => name.startsWith('--svc-color-') && (!CSS.supports('color', value) || /currentcolor|inherit|initial|unset|revert|light-dark/i.test(value)))
    .map(([name, value]) => `${name} "${value}" is not a colour: use #rrggbb, rgb() or hsl()`)
}

/** Whether white text reads better on `colour` than black: a dark surface. */
function isDark(colour: Rgba): boolean {
  const opaque = hexColour(over(colour, [255, 255, 255, 1]))
  return contrastRatio(opaque, '#ffffff') > contrastRatio(opaque, '#000000')
}

/**
 * Sets the theme a merchant passed to `mount` (raw JSON, taken as `embedTheme` takes it) on `target`,
 * then reads the colours back as the browser computes them inside `scope`. On a dark surface the
 * status colours turn to the checkout's light-on-dark ones. A theme whose text a payer could not read
 * (a dark surface with the default dark text, a translucent text colour) is not used for its colours,
 * and the console says which pair failed; its radius and fonts stay. Returns what failed.
 */
export function applyEmbedTheme(target: HTMLElement, scope: ParentNode, raw: string | null): string[] {
  const theme = embedTheme(raw)
  for (const [name, value] of Object.entries(theme)) target.style.setProperty(name, value)
  const probe = document.createElement('i')
  scope.append(probe)
  const read = (name: string) => {
    probe.style.color = `var(--svc-color-${name})`
    return parseComputedColour(getComputedStyle(probe).color)
  }
  const surface = read('surface')
  const statusColours = surface && isDark(surface) ? statusColoursOnDark : {}
  for (const [name, value] of Object.entries(statusColours)) target.style.setProperty(name, value)
  const problems = [...notColours(theme), ...unreadablePairs(read)]
  probe.remove()
  if (problems.length > 0) {
    for (const name of [...Object.keys(theme), ...Object.keys(statusColours)]) if (name.startsWith('--svc-color-')) target.style.removeProperty(name)
    console.warn(`svc-checkout: the theme's colours are not used, a payer could not read the checkout in them: ${problems.join('; ')}`)
  }
  return problems
}
