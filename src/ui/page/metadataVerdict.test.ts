import { describe, expect, test } from 'vitest'
import { hashMetadata } from '../../../shared/metadataHash'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { testDocument } from './invoiceDocument.fixture'
import { metadataVerdict } from './metadataVerdict'

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
    expect(metadataVerdict(metadata, recommitted, deployment)).toEqual({ kind: 'differs', fields: ['metaHash'] })
    expect(metadataVerdict(metadata, invoice, deployment)).toEqual({ kind: 'verified' })
  })

  test('behavior: a record committed on-chain that bills another amount or payee names both', () => {
    const onChain = { ...invoice, amount: '1000000000', merchant: '0x3333333333333333333333333333333333333333' as const }
    expect(metadataVerdict(metadata, onChain, deployment)).toEqual({ kind: 'differs', fields: ['amount', 'merchant'] })
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
    expect(metadataVerdict(record, committed, deployment)).toEqual({ kind: 'differs', fields: [field] })
  })
})
