import { describe, expect, test } from 'vitest'
import { feeShares } from './feeShares'

const usdc = 6

describe('feeShares', () => {
  test('default: a fee already in cents is shown as the chain moves it', () => {
    expect(feeShares({ paid: 248_000_000n, merchantReceives: 245_520_000n, fee: 2_480_000n }, usdc)).toEqual({ merchantReceives: 245_520_000n, fee: 2_480_000n })
  })

  test('behavior: a fee in fractions of a cent is rounded half up, and the share is the rest of the amount', () => {
    // 1% of 1,336.50: the chain moves 13.365 and 1,323.135
    expect(feeShares({ paid: 1_336_500_000n, merchantReceives: 1_323_135_000n, fee: 13_365_000n }, usdc)).toEqual({ merchantReceives: 1_323_130_000n, fee: 13_370_000n })
    expect(feeShares({ paid: 1_336_400_000n, merchantReceives: 1_323_036_000n, fee: 13_364_000n }, usdc)).toEqual({ merchantReceives: 1_323_040_000n, fee: 13_360_000n })
  })

  test('behavior: the two shown always add up to the amount paid, for any fee', () => {
    for (const [paid, fee] of [[1_000_001n, 10_000n], [7n, 3n], [999_999_999n, 9_999_999n], [5_000n, 5_000n]] as const) {
      const shown = feeShares({ paid, merchantReceives: paid - fee, fee }, usdc)
      expect(shown.merchantReceives + shown.fee).toBe(paid)
      expect(shown.merchantReceives).toBeGreaterThanOrEqual(0n)
    }
  })

  test('parameters: decimals: a token with 18 decimals rounds to its cent too; one with 2 or fewer is shown as it is', () => {
    expect(feeShares({ paid: 10n ** 18n, merchantReceives: 99n * 10n ** 16n - 5n * 10n ** 15n, fee: 10n ** 16n + 5n * 10n ** 15n }, 18)).toEqual({ merchantReceives: 98n * 10n ** 16n, fee: 2n * 10n ** 16n })
    expect(feeShares({ paid: 1_000n, merchantReceives: 990n, fee: 10n }, 2)).toEqual({ merchantReceives: 990n, fee: 10n })
    expect(feeShares({ paid: 1_000n, merchantReceives: 991n, fee: 9n }, 0)).toEqual({ merchantReceives: 991n, fee: 9n })
  })
})
