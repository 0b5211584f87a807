import { describe, expect, test } from 'vitest'
import { pageParams } from './pageParams'

describe('pageParams', () => {
  test('default: reads the invoice id from the share-link path and the token from its query', () => {
    expect(pageParams({ pathname: '/pay/42', search: '?token=svc_tk_abc' })).toEqual({ invoiceId: '42', token: 'svc_tk_abc', embed: false, locale: null, theme: null, layout: 'full' })
  })

  test('behavior: keeps the embed flag readable', () => {
    expect(pageParams({ pathname: '/pay/42/', search: '?token=svc_tk_abc&embed=1' }).embed).toBe(true)
  })

  test('behavior: the locale and theme of the mount options come through; a malformed locale does not', () => {
    const embedded = pageParams({ pathname: '/pay/7', search: '?embed=1&locale=de-DE&theme=%7B%22--svc-accent%22%3A%22%23070%22%7D' })
    expect(embedded).toMatchObject({ locale: 'de-DE', theme: '{"--svc-accent":"#070"}' })
    expect(pageParams({ pathname: '/pay/7', search: '?locale=%3Cscript%3E' }).locale).toBeNull()
  })

  test('behavior: layout=compact is the compact layout; anything else is the full document', () => {
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1&layout=compact' }).layout).toBe('compact')
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1&layout=tiny' }).layout).toBe('full')
  })

  test('behavior: anything that is not a pay link or a token is ignored', () => {
    expect(pageParams({ pathname: '/pay/0x10', search: '?token=abc' })).toEqual({ invoiceId: null, token: null, embed: false, locale: null, theme: null, layout: 'full' })
    expect(pageParams({ pathname: '/', search: '' }).invoiceId).toBeNull()
  })
})
