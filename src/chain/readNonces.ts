import type { Address } from 'viem'
import { decodeStaticResult, encodeStaticCall } from '../../shared/staticAbiCall'
import type { Deployment } from '../../shared/deployment'
import type { Eip1193Provider } from '../../shared/eip1193'
import { tokenNoncesAbi } from '../../shared/tokenAbi'
import { ethCall } from './ethCall'

const getNonceAbi = [
  {
    type: 'function',
    name: 'getNonce',
    stateMutability: 'view',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'key', type: 'uint192' },
    ],
    outputs: [{ type: 'uint256' }],
  },
] as const

/** The token's EIP-2612 nonce for the vault: the one a permit must carry to be usable. */
export async function readPermitNonce(provider: Eip1193Provider, deployment: Deployment, vault: Address): Promise<bigint> {
  const data = encodeStaticCall(tokenNoncesAbi[0], [vault])
  return decodeStaticResult(tokenNoncesAbi[0], await ethCall(provider, deployment.token, data))
}

/** EntryPoint.getNonce(vault, 0): the nonce the vault's next operation on key 0 must carry. A counterfactual
 * vault has 0. Once it is past an operation's nonce, that operation has run or can never run. */
export async function readEntryPointNonce(provider: Eip1193Provider, deployment: Deployment, vault: Address): Promise<bigint> {
  const data = encodeStaticCall(getNonceAbi[0], [vault, 0n])
  return decodeStaticResult(getNonceAbi[0], await ethCall(provider, deployment.entryPoint, data))
}
