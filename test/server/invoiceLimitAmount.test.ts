import { describe, expect, test } from 'vitest'
import { limitAmountText, limitBaseUnits } from '../../server/merchant/oauth/invoiceLimitAmount'

const usdc = { symbol: 'USDC', decimals: 6 }

/** The largest invoice a merchant types at consent, against the base units the limit is enforced in. */
describe('the largest invoice typed at consent', () => {
  test('behavior: an amount in USDC becomes exactly its base units, with a point or a comma', () => {
    expect(limitBaseUnits('20', usdc)).toBe(20_000_000n)
    expect(limitBaseUnits(' 1000.50 ', usdc)).toBe(1_000_500_000n)
    expect(limitBaseUnits('1000,5', usdc)).toBe(1_000_500_000n)
    expect(limitBaseUnits('0.000001', usdc)).toBe(1n)
    expect(limitBaseUnits('1000000000', usdc)).toBe(10n ** 15n)
    // a token without decimals takes whole amounts only
    expect(limitBaseUnits('7', { symbol: 'WHOLE', decimals: 0 })).toBe(7n)
    expect(limitBaseUnits('7.5', { symbol: 'WHOLE', decimals: 0 })).toBeNull()
  })

  test('behavior: more decimals than the token has, zero, negative, absurd or not an amount are refused', () => {
    for (const typed of ['20.0000001', '0', '0.000000', '-5', '+5', '1000000000.000001', '20000000000000000', '1e9', '1,000.50', '20 USDC', '', '.5', '0x10']) {
      expect(limitBaseUnits(typed, usdc), typed).toBeNull()
    }
  })

  test('behavior: a limit reads back as the amount typed, with its symbol and no decimal lost', () => {
    expect(limitAmountText('20000000', usdc)).toBe('20 USDC')
    expect(limitAmountText(1_000_500_000n, usdc)).toBe('1000.5 USDC')
    expect(limitAmountText('20000001', usdc)).toBe('20.000001 USDC')
    expect(limitAmountText('7', { symbol: 'WHOLE', decimals: 0 })).toBe('7 WHOLE')
  })
})
