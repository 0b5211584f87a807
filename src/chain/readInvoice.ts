import type { Address, Hex } from 'viem'
import { decodeStaticResult, encodeStaticCall } from '../../shared/staticAbiCall'
import type { Deployment } from '../../shared/deployment'
import { hasProviderCode, providerErrors, type Eip1193Provider } from '../../shared/eip1193'
import { ethCall } from './ethCall'

// the one fragment the widget needs: the full registry ABI would cost the page's budget
const invoicesAbi = [
  {
    type: 'function',
    name: 'invoices',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [
      {
        type: 'tuple',
        components: [
          { name: 'merchant', type: 'address' },
          { name: 'status', type: 'uint8' },
          { name: 'invoiceNumber', type: 'uint64' },
          { name: 'token', type: 'address' },
          { name: 'issuedAt', type: 'uint64' },
          { name: 'payer', type: 'address' },
          { name: 'dueAt', type: 'uint64' },
          { name: 'paidAt', type: 'uint64' },
          { name: 'amount', type: 'uint256' },
          { name: 'metaHash', type: 'bytes32' },
        ],
      },
    ],
  },
] as const

/** The registry's record of an invoice (`invoices(id)`). */
export type OnchainInvoice = {
  merchant: Address
  status: number
  invoiceNumber: bigint
  token: Address
  issuedAt: bigint
  payer: Address
  dueAt: bigint
  paidAt: bigint
  amount: bigint
  metaHash: Hex
}

/** The pinned registry's record of invoice `id`; null when it has none (`invoices` reverts with
 * UnknownInvoice, the only way it can revert). */
export async function readInvoice(provider: Eip1193Provider, deployment: Deployment, id: bigint): Promise<OnchainInvoice | null> {
  const data = encodeStaticCall(invoicesAbi[0], [id])
  let result
  try {
    result = await ethCall(provider, deployment.registry, data)
  } catch (error) {
    if (hasProviderCode(error, providerErrors.executionReverted)) return null
    throw error
  }
  return decodeStaticResult(invoicesAbi[0], result)
}
