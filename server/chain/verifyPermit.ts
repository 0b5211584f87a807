import { decodeAbiParameters, encodeDeployData, encodePacked, hashTypedData, isAddressEqual, type Address, type Hex, type PublicClient } from 'viem'
import { permitProbeAbi, permitProbeBytecode } from '../../contracts/artifacts/PermitProbe'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import type { PermitSignature } from '../../shared/payCall'
import { permitTypes } from '../../shared/permit'
import { readPermitDomain } from './permitDomain'
import { recoverStrict } from './strictEcdsa'

export type PermitCheck = {
  token: Address
  owner: Address
  spender: Address
  value: bigint
  permit: PermitSignature
  /** When the owner vault has no code yet: the call that deploys it, run first inside the simulation. */
  deployment?: { factory: Address; factoryData: Hex }
}

/**
 * The permit of an account without code (the funding permit, from the payer's own account). Asks the token itself, in an eth_call that changes nothing, whether the permit verifies: the probe
 * deploys the vault when needed (as the UserOperation will), then calls permit() and reads the
 * allowance. ECDSA owners are judged exactly as they will be on-chain. A payer vault's permit cannot be asked
 * this way: the vault accepts it only while it runs that very payment (verifyVaultPermit).
 */
export async function verifyPermit(client: PublicClient, check: PermitCheck): Promise<boolean> {
  const { permit } = check
  const data = encodeDeployData({
    abi: permitProbeAbi,
    bytecode: permitProbeBytecode,
    args: [
      check.deployment?.factory ?? '0x0000000000000000000000000000000000000000',
      check.deployment?.factoryData ?? '0x',
      check.token,
      check.owner,
      check.spender,
      check.value,
      permit.deadline,
      permit.v,
      permit.r,
      permit.s,
    ],
  })
  const { data: result } = await client.call({ data })
  if (!result || result.length !== 66) return false
  const [valid] = decodeAbiParameters([{ type: 'uint256' }], result)
  return valid === 1n
}

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
