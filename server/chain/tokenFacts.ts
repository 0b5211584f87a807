import type { Address, PublicClient } from 'viem'
import { readPermitDomain } from './permitDomain'

const metadataAbi = [
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] },
] as const

/** What a page build pins about its token, as the token itself says it: every amount a payer reads is
 * formatted with these, and a permit under any other domain is refused. */
export type TokenFacts = { tokenSymbol: string; tokenDecimals: number; permitDomain: { name: string; version: string } }

export async function readTokenFacts(client: PublicClient, token: Address, chainId: number): Promise<TokenFacts> {
  const [tokenSymbol, tokenDecimals, domain] = await Promise.all([
    client.readContract({ address: token, abi: metadataAbi, functionName: 'symbol' }),
    client.readContract({ address: token, abi: metadataAbi, functionName: 'decimals' }),
    readPermitDomain(client, token, chainId),
  ])
  return { tokenSymbol, tokenDecimals, permitDomain: { name: domain.name, version: domain.version } }
}
