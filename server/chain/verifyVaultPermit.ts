import { encodePacked, hashTypedData, isAddressEqual, type Address, type PublicClient } from 'viem'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import type { PermitSignature } from '../../shared/payCall'
import { permitTypes } from '../../shared/permit'
import { readPermitDomain } from './permitDomain'
import { recoverStrict } from './recoverStrict'

export type VaultPermitCheck = {
  token: Address
  chainId: number
  vault: Address
  /** The vault's owner: read from the deployed vault, or, for a counterfactual one, the owner whose
   * vault address it is (the factory will make it the owner). */
  owner: Address
  spender: Address
  value: bigint
  permit: PermitSignature
}

/**
 * A payer vault's permit, judged as the vault will judge it inside the payment: its ERC-1271 answer
 * accepts only its owner's plain ECDSA signature of the token's permit digest for this vault, this
 * spender and value, the vault's current token nonce and the deadline (contracts/PayerVault.sol).
 */
export async function verifyVaultPermit(client: PublicClient, check: VaultPermitCheck): Promise<boolean> {
  const [domain, nonce] = await Promise.all([
    readPermitDomain(client, check.token, check.chainId),
    client.readContract({ address: check.token, abi: stablecoinAbi, functionName: 'nonces', args: [check.vault] }),
  ])
  const digest = hashTypedData({
    domain,
    types: permitTypes,
    primaryType: 'Permit',
    message: { owner: check.vault, spender: check.spender, value: check.value, nonce, deadline: check.permit.deadline },
  })
  const { r, s, v } = check.permit
  // the token hands the vault abi.encodePacked(r, s, v), which is what the vault recovers from
  const signer = await recoverStrict(digest, encodePacked(['bytes32', 'bytes32', 'uint8'], [r, s, v]))
  return signer !== null && isAddressEqual(signer, check.owner)
}
