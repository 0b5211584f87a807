import { describe, expect, test } from 'vitest'
import { baseUnitsOf } from '../../dashboard/dashboardApi'

/** What the merchant types into the invoice form, against the base units the API takes. */
describe("the dashboard's amounts", () => {
  test('behavior: a typed USDC amount becomes exactly its base units, with a point or a comma', () => {
    expect(baseUnitsOf('12.5')).toBe('12500000')
    expect(baseUnitsOf('12,5')).toBe('12500000')
    expect(baseUnitsOf(' 1000000 ')).toBe('1000000000000')
    expect(baseUnitsOf('0.000001')).toBe('1')
    expect(baseUnitsOf('123456789012345678.123456')).toBe('123456789012345678123456')
  })

  test('behavior: zero, more than six decimals, signs and words are not an amount (the API then says why)', () => {
    for (const typed of ['0', '0.000000', '1.0000001', '-5', '1e3', 'twelve', '', '.5']) expect(baseUnitsOf(typed), typed).toBeNull()
  })
})
