import { formatUnits as viemFormatUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { formatUnits } from './formatUnits'

describe('formatUnits', () => {
  test('default: an invoice amount in USDC units', () => {
    expect(formatUnits(4_540_000_000n, 6)).toBe('4540')
    expect(formatUnits(248_500_000n, 6)).toBe('248.5')
  })

  test('behavior: agrees with viem digit for digit, across signs, sizes and decimals', () => {
    const values = [0n, 1n, 9n, 10n, 999_999n, 1_000_000n, 1_000_001n, 123_456_789_012_345_678_901_234_567_890n, 2n ** 256n - 1n]
    for (const decimals of [0, 1, 2, 6, 18, 36]) {
      for (const value of values) {
        expect(formatUnits(value, decimals)).toBe(viemFormatUnits(value, decimals))
        expect(formatUnits(-value, decimals)).toBe(viemFormatUnits(-value, decimals))
      }
    }
  })
})
