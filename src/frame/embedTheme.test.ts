import { expect, test } from 'vitest'
import { embedTheme } from './embedTheme'

test('behavior: takes --svc-* colours, radius and font from the mount options', () => {
  expect(embedTheme(JSON.stringify({ '--svc-accent': '#0a7f5a', '--svc-radius': '4px', '--svc-font': '"Inter", sans-serif' }))).toEqual({
    '--svc-accent': '#0a7f5a',
    '--svc-radius': '4px',
    '--svc-font': '"Inter", sans-serif',
  })
})

test('behavior: drops other properties, url() and anything that could end the declaration', () => {
  expect(
    embedTheme(JSON.stringify({ color: 'red', '--svc-bg': 'url(https://evil.example/x.png)', '--svc-ink': 'red; background: red', '--svc-accent': 12 })),
  ).toEqual({})
  expect(embedTheme('not json')).toEqual({})
  expect(embedTheme(null)).toEqual({})
})

test('behavior: the warning, danger and success colours are not the framing page\'s to set: a refusal stays legible and red', () => {
  expect(
    embedTheme(JSON.stringify({ '--svc-color-warning': '#fff4e0', '--svc-color-danger-bg': '#a8071a', '--svc-color-success': '#a8071a', '--svc-color-accent': '#0a7f5a' })),
  ).toEqual({ '--svc-color-accent': '#0a7f5a' })
})
