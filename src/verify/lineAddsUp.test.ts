import { describe, expect, test } from 'vitest'
import { lineAddsUp } from './lineAddsUp'

const line = (quantity: number, unitPrice: string, amount: string) => ({ description: 'Work', quantity, unitPrice, amount })

describe('lineAddsUp', () => {
  test('default: quantity times unit price is the amount', () => {
    expect(lineAddsUp(line(16, '85.00', '1360.00'))).toBe(true)
    expect(lineAddsUp(line(1, '10', '10.000000'))).toBe(true)
    expect(lineAddsUp(line(3, '33.333333', '99.999999'))).toBe(true)
  })

  test('behavior: a line that does not multiply out is found, however the lines add up', () => {
    expect(lineAddsUp(line(100, '0.10', '1000.00'))).toBe(false)
    expect(lineAddsUp(line(16, '85.00', '1360.01'))).toBe(false)
  })

  test('behavior: exact, with no floating point: 0.1 × 3 is 0.3, and 1.5 × 0.15 is 0.225', () => {
    // in floating point 0.1 * 3 is 0.30000000000000004
    expect(lineAddsUp(line(0.1, '3', '0.3'))).toBe(true)
    expect(lineAddsUp(line(1.5, '0.15', '0.225'))).toBe(true)
    expect(lineAddsUp(line(0.1, '3', '0.30000000000000004'))).toBe(false)
  })

  test('behavior: no rounding: 1.333 × 85.00 is 113.305, not 113.31', () => {
    expect(lineAddsUp(line(1.333, '85.00', '113.305'))).toBe(true)
    expect(lineAddsUp(line(1.333, '85.00', '113.31'))).toBe(false)
  })

  test('behavior: a quantity JSON writes with an exponent is read exactly', () => {
    expect(lineAddsUp(line(1e-7, '10000000', '1'))).toBe(true)
    expect(lineAddsUp(line(1e21, '1', '1000000000000000000000'))).toBe(true)
    expect(lineAddsUp(line(1e21, '1', '1000000000000000000001'))).toBe(false)
  })

  test('behavior: a quantity that is no number never adds up', () => {
    expect(lineAddsUp(line(Number.POSITIVE_INFINITY, '1', '1'))).toBe(false)
    expect(lineAddsUp(line(Number.NaN, '1', '1'))).toBe(false)
  })
})
