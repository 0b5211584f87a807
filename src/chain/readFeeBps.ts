import type { Address } from 'viem'
import { decodeStaticResult, encodeStaticCall } from '../../shared/staticAbiCall'
import type { Deployment } from '../../shared/deployment'
import type { Eip1193Provider } from '../../shared/eip1193'
import { ethCall } from './ethCall'

const feeBpsForAbi = {
  type: 'function',
  name: 'feeBpsFor',
  stateMutability: 'view',
  inputs: [{ name: 'merchant', type: 'address' }],
  outputs: [{ type: 'uint16' }],
} as const

/** The rate the pinned registry charges `merchant` on a payment made now: the payer's message names it,
 * and the vault pays only at exactly that rate. */
export async function readFeeBps(provider: Eip1193Provider, deployment: Deployment, merchant: Address): Promise<number> {
  return decodeStaticResult(feeBpsForAbi, await ethCall(provider, deployment.registry, encodeStaticCall(feeBpsForAbi, [merchant])))
}
