import { decodeAbiParameters, encodeDeployData, type Address, type Hex, type PublicClient } from 'viem'
import { permitProbeAbi, permitProbeBytecode } from '../../contracts/artifacts/PermitProbe'
import type { PermitSignature } from '../../shared/payCall'

export type VerifyPermitParameters = {
  token: Address
  owner: Address
  spender: Address
  value: bigint
  permit: PermitSignature
  /** When the owner vault has no code yet: the call that deploys it, run first inside the simulation. */
  deployment?: { factory: Address; factoryData: Hex }
}

/**
 * Asks the token itself, in an eth_call that changes nothing, whether the permit verifies: the probe
 * deploys the vault when needed (as the UserOperation will), then calls permit() and reads the
 * allowance. ECDSA and ERC-1271 owners are judged exactly as they will be on-chain.
 */
export async function verifyPermit(client: PublicClient, parameters: VerifyPermitParameters): Promise<boolean> {
  const { permit } = parameters
  const data = encodeDeployData({
    abi: permitProbeAbi,
    bytecode: permitProbeBytecode,
    args: [
      parameters.deployment?.factory ?? '0x0000000000000000000000000000000000000000',
      parameters.deployment?.factoryData ?? '0x',
      parameters.token,
      parameters.owner,
      parameters.spender,
      parameters.value,
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
