import { CodedError } from '../../shared/codedError'
import { hashDomain, type Address, type PublicClient } from 'viem'
import { permitDomainType, type PermitDomain } from '../../shared/permit'

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


/** Versions tried, with name(), against DOMAIN_SEPARATOR for a token that exposes neither ERC-5267
 * nor version(): EIP-2612 tokens in the wild sign as one of these. */
const versionCandidates = ['1', '2']

/** The domains the token may sign under, most explicit first: ERC-5267 where the token has it, else
 * name() and version() as USDC v2.2 exposes them, else name() with each candidate version. */
async function candidateDomains(client: PublicClient, token: Address, chainId: number): Promise<PermitDomain[]> {
  const contract = { address: token, abi: domainAbi } as const
  try {
    const [, name, version, domainChainId, verifyingContract] = await client.readContract({ ...contract, functionName: 'eip712Domain' })
    return [{ name, version, chainId: Number(domainChainId), verifyingContract }]
  } catch {
    const [name, version] = await Promise.all([
      client.readContract({ ...contract, functionName: 'name' }),
      client.readContract({ ...contract, functionName: 'version' }).catch(() => null),
    ])
    return (version === null ? versionCandidates : [version]).map((candidate) => ({ name, version: candidate, chainId, verifyingContract: token }))
  }
}

/**
 * The token's EIP-712 domain, read from the chain: whichever candidate hashes to the token's own
 * DOMAIN_SEPARATOR, so a payer is never asked to sign a permit the token would reject.
 */
async function fetchPermitDomain(client: PublicClient, token: Address, chainId: number): Promise<PermitDomain> {
  const [candidates, separator] = await Promise.all([
    candidateDomains(client, token, chainId),
    client.readContract({ address: token, abi: domainAbi, functionName: 'DOMAIN_SEPARATOR' }),
  ])
  const domain = candidates.find(
    (candidate) => hashDomain({ domain: { ...candidate, chainId: BigInt(candidate.chainId) }, types: { EIP712Domain: permitDomainType } }) === separator,
  )
  if (!domain) throw new PermitDomainError(`the EIP-712 domain of ${token} does not match its DOMAIN_SEPARATOR`)
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
