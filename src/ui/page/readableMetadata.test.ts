import { describe, expect, test } from 'vitest'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { testDocument } from './invoiceDocument.fixture'
import { readableMetadata, receivedRecord } from './readableMetadata'

const { metadata } = testDocument(testDeployment())

describe('readableMetadata', () => {
  test('behavior: every text of the record is shown with its hidden characters visible; what holds none is kept as it is', () => {
    const record = { ...metadata, notes: 'you pay \u202E10.00 USDC only', lineItems: [{ ...metadata.lineItems[0]!, description: 'Design\u2028work' }] }
    const shown = readableMetadata(record)
    expect(shown.notes).toBe('you pay [U+202E]10.00 USDC only')
    expect(shown.lineItems[0]!.description).toBe('Design[U+2028]work')
    expect(shown.merchant).toBe(record.merchant)
    expect(readableMetadata(metadata)).toBe(metadata)
  })

  test('behavior: one shown record per received record, which it leads back to; a shown record is shown as it is', () => {
    const record = { ...metadata, notes: 'pay\u200Bnow' }
    const shown = readableMetadata(record)
    expect(readableMetadata(record)).toBe(shown)
    expect(receivedRecord(shown)).toBe(record)
    expect(readableMetadata(shown)).toBe(shown)
    expect(receivedRecord(shown)).toBe(record)
  })
})
