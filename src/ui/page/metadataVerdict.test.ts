import { describe, expect, test } from 'vitest'
import { hashMetadata } from '../../../shared/metadataHash'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { testDocument } from './invoiceDocument.fixture'
import { metadataVerdict } from './metadataVerdict'
import { readableMetadata } from './readableMetadata'

const deployment = testDeployment()
const { metadata, invoice } = testDocument(deployment)

describe('metadataVerdict', () => {
  test('default: the committed record billing the on-chain amount, token, chain and merchant is verified', () => {
    expect(metadataVerdict(metadata, hashMetadata(metadata), invoice, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: nothing is verified before the chain has confirmed the invoice', () => {
    expect(metadataVerdict(metadata, hashMetadata(metadata), { ...invoice, confirmed: false }, deployment)).toEqual({ kind: 'unconfirmed' })
  })

  test('behavior: one record judged again against another on-chain commitment is judged against that one', () => {
    expect(metadataVerdict(metadata, hashMetadata(metadata), invoice, deployment)).toEqual({ kind: 'verified' })
    const recommitted = { ...invoice, metaHash: `0x${'ab'.repeat(32)}` as const }
    expect(metadataVerdict(metadata, hashMetadata(metadata), recommitted, deployment)).toEqual({ kind: 'differs', fields: ['metaHash'], names: [] })
    expect(metadataVerdict(metadata, hashMetadata(metadata), invoice, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: a record committed on-chain that bills another amount or payee names both', () => {
    const onChain = { ...invoice, amount: '1000000000', merchant: '0x3333333333333333333333333333333333333333' as const }
    expect(metadataVerdict(metadata, hashMetadata(metadata), onChain, deployment)).toEqual({ kind: 'differs', fields: ['amount', 'total shown', 'line items', 'merchant'], names: [] })
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
    expect(metadataVerdict(record, hashMetadata(record), committed, deployment)).toEqual({ kind: 'differs', fields: [field], names: [] })
  })

  test('behavior: a committed record whose amountRaw matches the chain but whose total in words, lines and due date do not is not verified, and names each', () => {
    const record = { ...metadata, amount: '10.00', dueAt: '2030-01-01', lineItems: [{ description: 'Everything', quantity: 1, unitPrice: '10.00', amount: '10.00' }] }
    const committed = { ...invoice, metaHash: hashMetadata(record) }
    expect(metadataVerdict(record, hashMetadata(record), committed, deployment)).toEqual({ kind: 'differs', fields: ['total shown', 'line items', 'due date'], names: [] })
  })

  test('behavior: lines add up with their stated tax; a total with digits the token cannot hold is no match', () => {
    const taxed = {
      ...metadata,
      lineItems: [
        { description: 'Design', quantity: 1, unitPrice: '4000.00', amount: '4000.00', taxRate: '13.5', taxAmount: '540.00' },
      ],
    }
    expect(metadataVerdict(taxed, hashMetadata(taxed), { ...invoice, metaHash: hashMetadata(taxed) }, deployment)).toEqual({ kind: 'verified' })
    const overPrecise = { ...metadata, amount: '4540.0000001' }
    expect(metadataVerdict(overPrecise, hashMetadata(overPrecise), { ...invoice, metaHash: hashMetadata(overPrecise) }, deployment)).toEqual({ kind: 'differs', fields: ['total shown'], names: [] })
  })

  test.each([
    ['lookalike', 'a Greek Nu and a Cyrillic o mixed into Latin', '\u039Dorthwind Studi\u043E Ltd'],
    ['lookalike', 'all Cyrillic letters that read as Latin', '\u0430\u0440\u0440\u04CF\u0435'],
    ['lookalike', 'a fullwidth letter', '\uFF2Eorthwind Studio Ltd'],
    ['lookalike', 'a mathematical letter', '\u{1D5AD}orthwind Studio Ltd'],
    ['mixed', 'a Cyrillic letter that looks like none in Latin, in a Latin word', 'Northwin\u0434 Studio Ltd'],
  ] as const)('behavior: a committed merchant name that may pass for another (%s: %s) is not verified, and says why', (finding, _, name) => {
    const record = { ...metadata, merchant: { ...metadata.merchant, name } }
    expect(metadataVerdict(record, hashMetadata(record), { ...invoice, metaHash: hashMetadata(record) }, deployment)).toEqual({ kind: 'differs', fields: [], names: [{ name, finding }] })
  })

  test('behavior: the payer\'s name is judged too', () => {
    const record = { ...metadata, payer: { ...metadata.payer, name: '\u0410\u0441me Robotics GmbH' } }
    expect(metadataVerdict(record, hashMetadata(record), { ...invoice, metaHash: hashMetadata(record) }, deployment)).toEqual({ kind: 'differs', fields: [], names: [{ name: '\u0410\u0441me Robotics GmbH', finding: 'lookalike' }] })
  })

  test('behavior: a line whose quantity times unit price is not its amount is not verified, though the lines add up to the chain\'s amount', () => {
    // 100 × 0.10 is 10.00, not 1,360.00; the three lines still add up to 4,540.00
    const [first, ...rest] = metadata.lineItems
    const record = { ...metadata, lineItems: [{ ...first!, quantity: 100, unitPrice: '0.10' }, ...rest] }
    expect(metadataVerdict(record, hashMetadata(record), { ...invoice, metaHash: hashMetadata(record) }, deployment)).toEqual({ kind: 'differs', fields: ['quantity × unit price'], names: [] })
  })

  test('behavior: the record is judged as received: its hash and its names, whatever was made visible to show it', () => {
    const record = { ...metadata, merchant: { ...metadata.merchant, name: 'North\u200Bwind Studio Ltd' }, notes: 'you pay \u202E10.00 USDC only' }
    const committed = { ...invoice, metaHash: hashMetadata(record) }
    const shown = readableMetadata(record)
    expect(shown.merchant.name).toBe('North[U+200B]wind Studio Ltd')
    // the name as shown has no hidden character left: the one received has
    expect(metadataVerdict(shown, hashMetadata(record), committed, deployment)).toEqual({ kind: 'differs', fields: [], names: [{ name: 'North[U+200B]wind Studio Ltd', finding: 'hidden' }] })
    // a note with a hidden character is shown with it made visible, and the record still verified
    const noted = { ...metadata, notes: 'you pay \u202E10.00 USDC only' }
    expect(metadataVerdict(readableMetadata(noted), hashMetadata(noted), { ...invoice, metaHash: hashMetadata(noted) }, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: once the chain disproved the service\'s invoice, its document is withdrawn', () => {
    expect(metadataVerdict(metadata, hashMetadata(metadata), { ...invoice, disproved: true }, deployment)).toEqual({ kind: 'withdrawn' })
  })
})
