import { describe, expect, test } from 'vitest'
import { pageParams } from './pageParams'

describe('pageParams', () => {
  test('default: reads the invoice id from the share-link path and the token from its query', () => {
    expect(pageParams({ pathname: '/pay/42', search: '?token=svc_tk_abc' })).toEqual({ invoiceId: '42', token: 'svc_tk_abc', embed: false })
  })

  test('behavior: keeps the embed flag readable', () => {
    expect(pageParams({ pathname: '/pay/42/', search: '?token=svc_tk_abc&embed=1' }).embed).toBe(true)
  })

  test('behavior: anything that is not a pay link or a token is ignored', () => {
    expect(pageParams({ pathname: '/pay/0x10', search: '?token=abc' })).toEqual({ invoiceId: null, token: null, embed: false })
    expect(pageParams({ pathname: '/', search: '' }).invoiceId).toBeNull()
  })
})
