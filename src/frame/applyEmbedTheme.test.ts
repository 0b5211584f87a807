import { describe, expect, test } from 'vitest'
import { parseComputedColour, statusColoursOnDark, unreadablePairs, type Rgba } from './applyEmbedTheme'

/** src/ui/theme.css's defaults, as a browser computes them. */
const defaults: Record<string, string> = {
  bg: 'rgb(244, 245, 247)',
  surface: 'rgb(255, 255, 255)',
  text: 'rgb(26, 28, 31)',
  muted: 'rgb(86, 91, 99)',
  accent: 'rgb(11, 92, 173)',
  'accent-text': 'rgb(255, 255, 255)',
  focus: 'rgb(11, 92, 173)',
  success: 'rgb(23, 104, 58)',
  'success-bg': 'rgb(233, 246, 238)',
  warning: 'rgb(122, 65, 0)',
  'warning-bg': 'rgb(255, 244, 224)',
  danger: 'rgb(168, 7, 26)',
  'danger-bg': 'rgb(253, 236, 238)',
}

/** The checkout's light-on-dark status colours, as a browser computes them. */
const onDark = Object.fromEntries(
  Object.entries(statusColoursOnDark).map(([name, hex]) => [name.replace('--svc-color-', ''), `rgb(${[1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)).join(', ')})`]),
)

const computed = (theme: Record<string, string>) => (name: string) => parseComputedColour({ ...defaults, ...theme }[name] ?? '')

describe('a merchant theme, read back as the browser computes it', () => {
  test("behavior: the checkout's own colours pass, and so does a warm light theme that keeps its text dark", () => {
    expect(unreadablePairs(computed({}))).toEqual([])
    expect(unreadablePairs(computed({ bg: 'rgb(250, 243, 230)', surface: 'rgb(255, 251, 242)', text: 'rgb(43, 29, 14)', accent: 'rgb(10, 107, 70)' }))).toEqual([])
  })

  test('behavior: a dark surface that keeps the default dark text is refused, naming each pair and its ratio', () => {
    const problems = unreadablePairs(computed({ bg: 'rgb(13, 14, 16)', surface: 'rgb(21, 23, 26)' }))
    expect(problems).toContain('--svc-color-text on --svc-color-surface is 1.05:1, under 4.5:1')
    expect(problems).toContain('--svc-color-text on --svc-color-bg is 1.13:1, under 4.5:1')
  })

  test("behavior: a dark theme with light text passes with the checkout's light-on-dark status colours, and would not with its light-surface ones", () => {
    const dark = { bg: 'rgb(13, 14, 16)', surface: 'rgb(21, 23, 26)', text: 'rgb(242, 243, 245)', muted: 'rgb(169, 174, 182)', accent: 'rgb(108, 178, 255)', 'accent-text': 'rgb(13, 14, 16)', focus: 'rgb(108, 178, 255)' }
    expect(unreadablePairs(computed({ ...dark, ...onDark }))).toEqual([])
    expect(unreadablePairs(computed(dark)).map((problem) => problem.split(' is ')[0])).toEqual(expect.arrayContaining(['--svc-color-success on --svc-color-surface', '--svc-color-warning on --svc-color-surface']))
  })

  test('behavior: a text made translucent, or a button label the colour of its button, is refused', () => {
    expect(unreadablePairs(computed({ text: 'rgba(26, 28, 31, 0.15)' }))).toContain('--svc-color-text on --svc-color-surface is 1.36:1, under 4.5:1')
    expect(unreadablePairs(computed({ 'accent-text': 'rgb(11, 92, 173)' }))).toEqual(['--svc-color-accent-text on --svc-color-accent is 1.00:1, under 4.5:1'])
  })

  test('behavior: a translucent page or card background is refused: what would show through it is the framing page', () => {
    expect(unreadablePairs(computed({ bg: 'rgba(255, 255, 255, 0)' }))).toEqual(['--svc-color-bg is translucent: the framing page would show through it'])
    expect(unreadablePairs(computed({ surface: 'rgba(255, 255, 255, 0.9)' }))).toEqual(['--svc-color-surface is translucent: the framing page would show through it'])
  })

  test('behavior: a colour in a form the check cannot read is refused rather than assumed readable', () => {
    expect(unreadablePairs(computed({ text: 'oklch(0.2 0.01 260)' }))).toEqual(['--svc-color-text is a colour this check cannot read: use #rrggbb, rgb() or hsl()'])
  })
})

test('behavior: reads the rgb(), rgba() and color(srgb) forms a browser computes', () => {
  expect(parseComputedColour('rgb(26, 28, 31)')).toEqual<Rgba>([26, 28, 31, 1])
  expect(parseComputedColour('rgba(0, 0, 0, 0)')).toEqual<Rgba>([0, 0, 0, 0])
  expect(parseComputedColour('color(srgb 1 0.5 0 / 0.25)')).toEqual<Rgba>([255, 127.5, 0, 0.25])
  expect(parseComputedColour('lab(20 0 0)')).toBeNull()
})
