import { CodedError } from '../../src/shared/codedError'
import { hashDomain, type Address, type PublicClient } from 'viem'
import { permitDomainType, type PermitDomain } from '../../src/shared/permit'

const domainAbi = [
  { type: 'function', name: 'eip712Domain', stateMutability: 'view', inputs: [], outputs: [
    { name: 'fields', type: 'bytes1' }, { name: 'name', type: 'string' }, { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }, { name: 'salt', type: 'bytes32' },
    { name: 'extensions', type: 'uint256[]' },
  ] },
  { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'DOMAIN_SEPARATOR', stateMutability: 'view', inputs: [], outputs: [{ type: 'bytes32' }] },
] as const

export class PermitDomainError extends CodedError {
  override name = 'PermitDomainError'
  readonly code = 'PERMIT_DOMAIN_UNKNOWN'
}


/**
 * The token's EIP-712 domain, read from the chain: ERC-5267 where the token has it, else name() and
 * version() as USDC v2.2 exposes them. Either way it must hash to the token's own DOMAIN_SEPARATOR, so
 * a payer is never asked to sign a permit the token would reject.
 */
async function fetchPermitDomain(client: PublicClient, token: Address, chainId: number): Promise<PermitDomain> {
  const contract = { address: token, abi: domainAbi } as const
  let domain: PermitDomain
  try {
    const [, name, version, domainChainId, verifyingContract] = await client.readContract({ ...contract, functionName: 'eip712Domain' })
    domain = { name, version, chainId: Number(domainChainId), verifyingContract }
  } catch {
    const [name, version] = await Promise.all([
      client.readContract({ ...contract, functionName: 'name' }),
      client.readContract({ ...contract, functionName: 'version' }),
    ])
    domain = { name, version, chainId, verifyingContract: token }
  }
  const separator = await client.readContract({ ...contract, functionName: 'DOMAIN_SEPARATOR' })
  if (hashDomain({ domain: { ...domain, chainId: BigInt(domain.chainId) }, types: { EIP712Domain: permitDomainType } }) !== separator) {
    throw new PermitDomainError(`the EIP-712 domain of ${token} does not match its DOMAIN_SEPARATOR`)
  }
  return domain
}

const domains = new WeakMap<PublicClient, Map<string, Promise<PermitDomain>>>()

/** A token's domain does not change: read it once per client and token (a failed read is retried). */
export function readPermitDomain(client: PublicClient, token: Address, chainId: number): Promise<PermitDomain> {
  let byToken = domains.get(client)
  if (!byToken) domains.set(client, (byToken = new Map()))
  const key = `${chainId}:${token.toLowerCase()}`
  let domain = byToken.get(key)
  if (!domain) {
    domain = fetchPermitDomain(client, token, chainId)
    domain.catch(() => byToken.delete(key))
    byToken.set(key, domain)
  }
  return domain
}
