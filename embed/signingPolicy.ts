import { permitTypes } from '../src/shared/permit'
import type { RpcError } from './protocol'

type TypedData = { types?: Record<string, unknown>; primaryType?: unknown; domain?: { chainId?: unknown } }

const hash32 = /^0x[0-9a-fA-F]{64}$/
const address = /^0x[0-9a-fA-F]{40}$/
// EIP-2612, field by field: the only structure a payment signs
const permitFields = permitTypes.Permit.map(({ name, type }) => `${name}:${type}`).join(',')

function refused(message: string): RpcError {
  return { code: 4100, message }
}

function fieldsOf(struct: unknown): string {
  return Array.isArray(struct) ? struct.map((field: { name?: unknown; type?: unknown } | null) => `${field?.name}:${field?.type}`).join() : ''
}

function parse(json: unknown): TypedData | null {
  try {
    const typed: unknown = typeof json === 'string' ? JSON.parse(json) : json
    return typeof typed === 'object' && typed !== null ? typed : null
  } catch {
    return null
  }
}

/** A permit bound to the chain the wallet is on: the domain type must include chainId, or the
 * wallet would leave it out of what it signs. */
function isPermit(typed: TypedData | null, walletChainId: number): boolean {
  const { types, primaryType, domain } = typed ?? {}
  const chainId = domain?.chainId
  return (
    !!types &&
    primaryType === 'Permit' &&
    Object.keys(types).every((name) => name === 'EIP712Domain' || name === 'Permit') &&
    fieldsOf(types.Permit) === permitFields &&
    fieldsOf(types.EIP712Domain).split(',').includes('chainId:uint256') &&
    (typeof chainId === 'number' || (typeof chainId === 'string' && chainId !== '')) &&
    Number(chainId) === walletChainId
  )
}

/**
 * The frame runs on the checkout's origin, and the host's wallet shows the host's (the merchant's)
 * origin for what it relays: were the checkout compromised, it must not get that wallet to sign
 * anything but a payment. So signing is held to the two things a payment signs (the userOpHash, and
 * an EIP-2612 permit on the wallet's chain), and the params relayed are the ones checked, re-encoded
 * (a wallet parsing the JSON differently cannot see something else). Throws an RpcError to refuse.
 */
export async function signingParams(method: string, params: unknown[], walletChainId: () => Promise<unknown>): Promise<unknown[]> {
  const [first, second] = params
  if (method === 'personal_sign') {
    if (typeof first !== 'string' || !hash32.test(first) || typeof second !== 'string' || !address.test(second)) {
      throw refused('personal_sign is relayed only for a 32-byte operation hash')
    }
    return [first, second]
  }
  if (method === 'eth_signTypedData_v4') {
    const typed = parse(second)
    if (typeof first !== 'string' || !address.test(first) || !isPermit(typed, Number(await walletChainId()))) {
      throw refused('eth_signTypedData_v4 is relayed only for an EIP-2612 Permit on the wallet\'s chain')
    }
    return [first, JSON.stringify(typed)]
  }
  return params
}
