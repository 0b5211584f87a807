import { describe, expect, test } from 'vitest'
import { invoiceMetadataSchema } from './metadata'
import { oneLineInvoiceRecord } from './oneLineInvoiceRecord'

const profile = {
  legalName: 'Northwind Studio GmbH',
  email: 'billing@northwind.example',
  address: { street: 'Hauptstraße 1', city: 'Berlin', postal: '10115', country: 'DE' },
  registrationNumber: 'HRB 12345',
  vatNumber: null,
  taxId: '',
}
const customer = {
  legalName: 'Contoso Ltd',
  email: 'ap@contoso.example',
  address: { street: '1 Main St', city: 'Dublin', postal: 'D01', country: 'IE' },
  registrationNumber: null,
  vatNumber: 'IE1234567X',
  taxId: null,
  walletAddress: '0xc0ffee254729296a45a3885639ac7e10f9d54979',
}
const token = { symbol: 'USDC', decimals: 6, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', chainId: 31337 } as const
// 2026-11-28 23:59:59 UTC, the day's last second: a day written in a time zone east of UTC would be the 29th
const issuedAt = 1_795_910_399n

const record = (overrides: Partial<Parameters<typeof oneLineInvoiceRecord>[0]> = {}) =>
  oneLineInvoiceRecord({
    invoiceNumber: '7',
    issuedAt,
    dueAt: issuedAt + 14n * 86_400n,
    profile,
    vault: '0x8464135c8f25da09e49bc8782676a84730c318bc',
    customer,
    token,
    amount: 1_234_500_000n,
    description: 'Design work, November',
    createdBy: "the studio owner's wallet, in the dashboard",
    createdAt: new Date('2026-11-28T12:00:00Z'),
    ...overrides,
  })

describe('the record of an invoice a studio issues', () => {
  test('behavior: the studio is the merchant with its vault as the wallet, the customer the payer, and a number never set is left out', () => {
    const { merchant, payer } = record()
    expect(merchant).toEqual({
      name: 'Northwind Studio GmbH',
      email: 'billing@northwind.example',
      address: { street: 'Hauptstraße 1', city: 'Berlin', postal: '10115', country: 'DE' },
      registrationNumber: 'HRB 12345',
      walletAddress: '0x8464135c8F25Da09e49BC8782676a84730C318bC',
    })
    expect(payer).toEqual({
      name: 'Contoso Ltd',
      email: 'ap@contoso.example',
      address: { street: '1 Main St', city: 'Dublin', postal: 'D01', country: 'IE' },
      vatNumber: 'IE1234567X',
      walletAddress: '0xc0ffee254729296a45a3885639AC7E10F9d54979',
    })
    expect(record({ customer: { ...customer, walletAddress: null } }).payer).not.toHaveProperty('walletAddress')
  })

  test('behavior: one line bills the whole amount in the token’s units, on UTC days, and the record is one the pay page accepts', () => {
    const written = record()
    expect(written).toMatchObject({ invoiceNumber: '7', issuedAt: '2026-11-28', dueAt: '2026-12-12', amount: '1234.5', amountRaw: '1234500000', description: 'Design work, November' })
    expect(written.lineItems).toEqual([{ description: 'Design work, November', quantity: 1, unitPrice: '1234.5', amount: '1234.5' }])
    expect(invoiceMetadataSchema.safeParse(written).success).toBe(true)
  })

  test('behavior: a blank description is none, and the line is named after the invoice’s number', () => {
    for (const description of [undefined, '', '   ']) {
      const written = record({ description })
      expect(written).not.toHaveProperty('description')
      expect(written.lineItems[0]!.description).toBe('Invoice 7')
    }
  })
})
