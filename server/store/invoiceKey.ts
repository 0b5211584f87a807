import { getAddress, type Address } from 'viem'

/** An invoice is only unique with its chain and registry: ids restart on every deployment. */
export type InvoiceKey = { chainId: number; registry: Address; invoiceId: bigint }

export type InvoiceKeyRow = { chain_id: number; registry: string; invoice_id: string }

/** The three key columns' parameters, in the order every query lists them. Addresses are stored in
 * lower case so that checksummed and plain spellings name one invoice. */
export function invoiceKeyParams({ chainId, registry, invoiceId }: InvoiceKey): [number, string, string] {
  return [chainId, registry.toLowerCase(), invoiceId.toString()]
}

export function invoiceKeyFromRow(row: InvoiceKeyRow): InvoiceKey {
  return { chainId: row.chain_id, registry: getAddress(row.registry), invoiceId: BigInt(row.invoice_id) }
}

/** One string per invoice, for what needs a single value: lock keys, encryption contexts. */
export function invoiceKeyString(key: InvoiceKey): string {
  return invoiceKeyParams(key).join(':')
}
