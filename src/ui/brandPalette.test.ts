import { describe, expect, test } from 'vitest'
import { brandPalette, brandStyle } from './brandPalette'
import { contrastRatio, relativeLuminance } from './contrastRatio'

describe('contrastRatio', () => {
  test('default: the extremes are exactly 1 and 21', () => {
    expect(relativeLuminance('#000000')).toBe(0)
    expect(relativeLuminance('#ffffff')).toBe(1)
    expect(contrastRatio('#ffffff', '#000000')).toBe(21)
    expect(contrastRatio('#000000', '#ffffff')).toBe(21)
    expect(contrastRatio('#0b5cad', '#0b5cad')).toBe(1)
  })

  test('behavior: the greys either side of AA on white: #767676 passes at 4.54:1, #777777 fails at 4.48:1', () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.5422, 4)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.4781, 4)
  })

  test('behavior: pure yellow is 0.9278 luminance: 19.556:1 with black, 1.074:1 with white', () => {
    expect(relativeLuminance('#ffff00')).toBeCloseTo(0.9278, 10)
    expect(contrastRatio('#ffff00', '#000000')).toBeCloseTo(19.556, 10)
    expect(contrastRatio('#ffff00', '#ffffff')).toBeCloseTo(1.0738, 4)
  })

  test('behavior: the sRGB curve is linear below 0.04045 (#0a0a0a is 10/255/12.92)', () => {
    expect(relativeLuminance('#0a0a0a')).toBeCloseTo(10 / 255 / 12.92, 12)
  })
})

describe('brandPalette', () => {
  test('behavior: a hard colour, #ffff00, keeps its colour, gets black text at 19.56:1 and a darker edge that stands 3:1 on white', () => {
    const palette = brandPalette('#ffff00')
    expect(palette).toEqual({ background: '#ffff00', text: '#000000', edge: EDGE_OF_YELLOW })
    expect(contrastRatio(palette.edge, '#ffffff')).toBeGreaterThanOrEqual(3)
  })

  test('behavior: a dark colour gets white text and is its own edge', () => {
    expect(brandPalette('#6d28d9')).toEqual({ background: '#6d28d9', text: '#ffffff', edge: '#6d28d9' })
    expect(contrastRatio('#6d28d9', '#ffffff')).toBeCloseTo(7.1049, 4)
  })

  test('behavior: every grey from black to white gets text at 4.5:1 or more, the worst of them 4.61:1 (the bound for any colour is 4.58:1)', () => {
    let worst = 21
    for (let level = 0; level < 256; level++) {
      const grey = `#${level.toString(16).padStart(2, '0').repeat(3)}`
      const { background, text, edge } = brandPalette(grey)
      worst = Math.min(worst, contrastRatio(background, text))
      expect(contrastRatio(edge, '#ffffff')).toBeGreaterThanOrEqual(3)
    }
    expect(worst).toBeGreaterThanOrEqual(4.5)
    expect(worst).toBeCloseTo(4.6075, 4)
  })

  test('behavior: its CSS is three custom properties and nothing else', () => {
    expect(brandStyle(brandPalette('#6d28d9'))).toBe('--svc-brand:#6d28d9;--svc-brand-text:#ffffff;--svc-brand-edge:#6d28d9')
  })
})

const EDGE_OF_YELLOW = '#999900'
