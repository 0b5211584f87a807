import { describe, expect, test } from 'vitest'
import { formatCount, formatDay, formatDecimal, formatTokenAmount } from './format'

describe('format', () => {
  test('behavior: amounts keep every digit of the decimal string, in the payer locale', () => {
    expect(formatDecimal('1234.5', 'en-US')).toBe('1,234.50')
    expect(formatDecimal('1234.123456789012345678', 'en-US')).toBe('1,234.123456789012345678')
    expect(formatTokenAmount(4_540_000_001n, { symbol: 'USDC', decimals: 6 }, 'de-DE')).toBe('4.540,000001 USDC')
  })

  test('behavior: a cached formatter never serves another locale or other options', () => {
    expect(formatDecimal('1234.5', 'en-US')).toBe('1,234.50')
    expect(formatDecimal('1234.5', 'de-DE')).toBe('1.234,50')
    expect(formatDecimal('1234.5', 'en-US')).toBe('1,234.50')
    // same locale, other options: a token with 2 decimals rounds to them, one with more shows them all
    expect(formatDecimal('1.129', 'en-US', 2)).toBe('1.13')
    expect(formatDecimal('1.129', 'en-US')).toBe('1.129')
    expect(formatCount(1000, 'de-DE')).toBe('1.000')
    expect(formatDay(new Date('2026-11-23T23:30:00Z'), 'en-GB')).toBe('23 November 2026')
    expect(formatDay(new Date('2026-11-23T23:30:00Z'), 'en-US')).toBe('November 23, 2026')
  })

  test('behavior: a token with fewer than two decimals shows what it has, where Intl would refuse two', () => {
    expect(formatTokenAmount(5n, { symbol: 'PTS', decimals: 0 }, 'en-US')).toBe('5 PTS')
    expect(formatTokenAmount(55n, { symbol: 'DIME', decimals: 1 }, 'en-US')).toBe('5.5 DIME')
    expect(formatTokenAmount(50n, { symbol: 'DIME', decimals: 1 }, 'en-US')).toBe('5.0 DIME')
  })
})
