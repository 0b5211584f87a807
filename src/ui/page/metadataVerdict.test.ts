import { describe, expect, test } from 'vitest'
import { hashMetadata } from '../../../shared/metadataHash'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { testDocument } from './invoiceDocument.fixture'
import { metadataVerdict, readableMetadata } from './metadataVerdict'

const deployment = testDeployment()
const { metadata, invoice } = testDocument(deployment)

describe('metadataVerdict', () => {
  test('default: the committed record billing the on-chain amount, token, chain and merchant is verified', () => {
    expect(metadataVerdict(metadata, invoice, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: nothing is verified before the chain has confirmed the invoice', () => {
    expect(metadataVerdict(metadata, { ...invoice, confirmed: false }, deployment)).toEqual({ kind: 'unconfirmed' })
  })

  test('behavior: one record judged again against another on-chain commitment is judged against that one', () => {
    expect(metadataVerdict(metadata, invoice, deployment)).toEqual({ kind: 'verified' })
    const recommitted = { ...invoice, metaHash: `0x${'ab'.repeat(32)}` as const }
    expect(metadataVerdict(metadata, recommitted, deployment)).toEqual({ kind: 'differs', fields: ['metaHash'], names: [] })
    expect(metadataVerdict(metadata, invoice, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: a record committed on-chain that bills another amount or payee names both', () => {
    const onChain = { ...invoice, amount: '1000000000', merchant: '0x3333333333333333333333333333333333333333' as const }
    expect(metadataVerdict(metadata, onChain, deployment)).toEqual({ kind: 'differs', fields: ['amount', 'total shown', 'line items', 'merchant'], names: [] })
  })

  test.each([
    ['metaHash', { ...metadata, notes: 'pay to another account' }],
    ['token', { ...metadata, token: { ...metadata.token, address: '0x5555555555555555555555555555555555555555' as const } }],
    ['token decimals or symbol', { ...metadata, token: { ...metadata.token, decimals: 18 } }],
    ['chain', { ...metadata, token: { ...metadata.token, chainId: 1 } }],
    ['merchant', { ...metadata, merchant: { ...metadata.merchant, walletAddress: undefined } }],
  ])('behavior: a record that differs in %s is not verified, and says so', (field, record) => {
    // the chain commits to this record's own hash, so only the named field is wrong
    const committed = { ...invoice, metaHash: field === 'metaHash' ? invoice.metaHash : hashMetadata(record) }
    expect(metadataVerdict(record, committed, deployment)).toEqual({ kind: 'differs', fields: [field], names: [] })
  })

  test('behavior: a committed record whose amountRaw matches the chain but whose total in words, lines and due date do not is not verified, and names each', () => {
    const record = { ...metadata, amount: '10.00', dueAt: '2030-01-01', lineItems: [{ description: 'Everything', quantity: 1, unitPrice: '10.00', amount: '10.00' }] }
    const committed = { ...invoice, metaHash: hashMetadata(record) }
    expect(metadataVerdict(record, committed, deployment)).toEqual({ kind: 'differs', fields: ['total shown', 'line items', 'due date'], names: [] })
  })

  test('behavior: lines add up with their stated tax; a total with digits the token cannot hold is no match', () => {
    const taxed = {
      ...metadata,
      lineItems: [
        { description: 'Design', quantity: 1, unitPrice: '4000.00', amount: '4000.00', taxRate: '13.5', taxAmount: '540.00' },
      ],
    }
    expect(metadataVerdict(taxed, { ...invoice, metaHash: hashMetadata(taxed) }, deployment)).toEqual({ kind: 'verified' })
    const overPrecise = { ...metadata, amount: '4540.0000001' }
    expect(metadataVerdict(overPrecise, { ...invoice, metaHash: hashMetadata(overPrecise) }, deployment)).toEqual({ kind: 'differs', fields: ['total shown'], names: [] })
  })

  test('behavior: a merchant name mixing Greek or Cyrillic lookalikes into Latin is flagged and not verified', () => {
    const record = { ...metadata, merchant: { ...metadata.merchant, name: '\u039Dorthwind Studi\u043E Ltd' } }
    expect(metadataVerdict(record, { ...invoice, metaHash: hashMetadata(record) }, deployment)).toEqual({ kind: 'differs', fields: [], names: ['\u039Dorthwind Studi\u043E Ltd'] })
  })

  test('behavior: the record is shown with hidden and direction-changing characters visible, and still judged by the hash of what was received', () => {
    const record = { ...metadata, notes: 'you pay \u202E10.00 USDC only' }
    const committed = { ...invoice, metaHash: hashMetadata(record) }
    const shown = readableMetadata(record)
    expect(shown.notes).toBe('you pay [U+202E]10.00 USDC only')
    expect(shown.merchant).toBe(record.merchant)
    expect(metadataVerdict(shown, committed, deployment)).toEqual({ kind: 'verified' })
    expect(readableMetadata(metadata)).toBe(metadata)
  })

  test('behavior: once the chain disproved the service\'s invoice, its document is withdrawn', () => {
    expect(metadataVerdict(metadata, { ...invoice, disproved: true }, deployment)).toEqual({ kind: 'withdrawn' })
  })
})
