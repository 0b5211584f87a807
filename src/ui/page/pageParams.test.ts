import { describe, expect, test } from 'vitest'
import { pageParams, preferredLanguages, queryWithLanguage, rememberedLanguage } from './pageParams'

describe('pageParams', () => {
  test('default: reads the invoice id from the share-link path and the token from its query', () => {
    expect(pageParams({ pathname: '/pay/42', search: '?token=svc_tk_abc' })).toEqual({ invoiceId: '42', token: 'svc_tk_abc', embed: false, locale: null, theme: null, layout: 'full', lang: null })
  })

  test('behavior: keeps the embed flag readable', () => {
    expect(pageParams({ pathname: '/pay/42/', search: '?token=svc_tk_abc&embed=1' }).embed).toBe(true)
  })

  test('behavior: the locale and theme of the mount options come through; a malformed locale does not', () => {
    const embedded = pageParams({ pathname: '/pay/7', search: '?embed=1&locale=de-DE&theme=%7B%22--svc-accent%22%3A%22%23070%22%7D' })
    expect(embedded).toMatchObject({ locale: 'de-DE', theme: '{"--svc-accent":"#070"}' })
    expect(pageParams({ pathname: '/pay/7', search: '?locale=%3Cscript%3E' }).locale).toBeNull()
  })

  test('behavior: an embed is compact unless it asks for layout=full; a share link is full unless it asks for layout=compact', () => {
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1' }).layout).toBe('compact')
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1&layout=compact' }).layout).toBe('compact')
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1&layout=tiny' }).layout).toBe('compact')
    expect(pageParams({ pathname: '/pay/7', search: '?embed=1&layout=full' }).layout).toBe('full')
    expect(pageParams({ pathname: '/pay/7', search: '' }).layout).toBe('full')
    expect(pageParams({ pathname: '/pay/7', search: '?layout=tiny' }).layout).toBe('full')
    expect(pageParams({ pathname: '/pay/7', search: '?layout=compact' }).layout).toBe('compact')
  })

  test('behavior: the language switch keeps a layout other than the link\'s default, and only that', () => {
    const link = { token: 'svc_tk_a', theme: null, locale: null }
    expect(queryWithLanguage({ ...link, embed: true, layout: 'full' }, 'de')).toBe('?token=svc_tk_a&embed=1&layout=full&lang=de')
    expect(queryWithLanguage({ ...link, embed: true, layout: 'compact' }, 'de')).toBe('?token=svc_tk_a&embed=1&lang=de')
    expect(queryWithLanguage({ ...link, embed: false, layout: 'compact' }, 'de')).toBe('?token=svc_tk_a&layout=compact&lang=de')
    expect(queryWithLanguage({ ...link, embed: false, layout: 'full' }, 'de')).toBe('?token=svc_tk_a&lang=de')
  })

  test('behavior: anything that is not a pay link or a token is ignored', () => {
    expect(pageParams({ pathname: '/pay/0x10', search: '?token=abc' })).toEqual({ invoiceId: null, token: null, embed: false, locale: null, theme: null, layout: 'full', lang: null })
    expect(pageParams({ pathname: '/', search: '' }).invoiceId).toBeNull()
  })

  test('behavior: the payer\'s pick in the language switch comes through, and comes first', () => {
    const params = pageParams({ pathname: '/pay/7', search: '?token=svc_tk_a&locale=de&lang=ja' })
    expect(params.lang).toBe('ja')
    expect(preferredLanguages(params, ['fr-FR'], 'es')).toEqual(['ja', 'es', 'de', 'fr-FR'])
    expect(preferredLanguages({ lang: null, locale: null }, ['fr-FR'])).toEqual(['fr-FR'])
    expect(pageParams({ pathname: '/pay/7', search: '?lang=%22%3E' }).lang).toBeNull()
  })

  test('behavior: the remembered language is read from its cookie, and only a well-formed tag', () => {
    expect(rememberedLanguage('a=1; svc_lang=pt-BR; b=2')).toBe('pt-BR')
    expect(rememberedLanguage('svc_lang=%3Cx%3E')).toBeNull()
    expect(rememberedLanguage(undefined)).toBeNull()
  })

  test('behavior: a language link keeps the token and how the page was framed', () => {
    const params = pageParams({ pathname: '/pay/7', search: '?token=svc_tk_a%2Bb&embed=1&theme=%7B%7D&lang=de' })
    expect(queryWithLanguage(params, 'ar')).toBe('?token=svc_tk_a%2Bb&embed=1&theme=%7B%7D&lang=ar')
    expect(new URLSearchParams(queryWithLanguage(params, 'ar')).get('token')).toBe('svc_tk_a+b')
  })
})
