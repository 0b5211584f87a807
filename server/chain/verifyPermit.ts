import { decodeAbiParameters, encodeDeployData, zeroAddress, type Address, type PublicClient } from 'viem'
import { permitProbeAbi, permitProbeBytecode } from '../../contracts/artifacts/PermitProbe'
import type { PermitSignature } from '../../shared/payCall'

export type VerifyPermitParameters = {
  token: Address
  owner: Address
  spender: Address
  value: bigint
  permit: PermitSignature
}

/**
 * The permit of an account without code (the funding permit, from the payer's own account). Asks the
 * token itself, in an eth_call that changes nothing, whether the permit verifies: the probe calls
 * permit() and reads the allowance, so the owner is judged exactly as it will be on-chain. A payer
 * vault's permit cannot be asked this way: the vault accepts it only while it runs that very payment
 * (verifyVaultPermit).
 */
export async function verifyPermit(client: PublicClient, parameters: VerifyPermitParameters): Promise<boolean> {
  const { permit } = parameters
  const data = encodeDeployData({
    abi: permitProbeAbi,
    bytecode: permitProbeBytecode,
    args: [
      // the probe can deploy a vault first; the owners asked about here have no code to deploy
      zeroAddress,
      '0x',
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

