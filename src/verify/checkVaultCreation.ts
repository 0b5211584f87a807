import type { Address } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { Deployment } from '../../shared/deployment'
import { decodeCreateVault, encodeCreateVault } from '../../shared/payCall'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

export type CheckVaultCreationParameters = { deployment: Deployment; owner: Address; vaultDeployed: boolean }

/** Factory fields run code before the account validates: allowed only to create this owner's vault,
 * through the pinned factory, and only when it does not exist yet. */
export function checkVaultCreation(
  { factory, factoryData }: Pick<UserOperation<'0.7'>, 'factory' | 'factoryData'>,
  { deployment, owner, vaultDeployed }: CheckVaultCreationParameters,
): UnsafeProblem[] {
  if (vaultDeployed) {
    return factory || factoryData
      ? [{ code: 'FACTORY_UNEXPECTED', message: 'Your vault already exists, yet the operation would deploy one.' }]
      : []
  }
  if (!factory) {
    return [{ code: 'FACTORY_MISSING', message: 'Your vault does not exist yet and the operation would not create it.' }]
  }
  const problems: UnsafeProblem[] = []
  if (!sameAddress(factory, deployment.vaultFactory)) {
    problems.push({
      code: 'FACTORY_MISMATCH',
      message: `The operation creates your vault with ${factory}, not with the vault factory ${deployment.vaultFactory}.`,
    })
  }
  if (factoryData?.toLowerCase() !== encodeCreateVault(owner).toLowerCase()) problems.push(factoryDataProblem(factoryData, owner))
  return problems
}

function factoryDataProblem(factoryData: UserOperation<'0.7'>['factoryData'], owner: Address): UnsafeProblem {
  const unexpected: UnsafeProblem = { code: 'FACTORY_DATA_MISMATCH', message: 'The operation creates your vault in an unexpected way.' }
  if (!factoryData) return unexpected
  try {
    const created = decodeCreateVault(factoryData)
    if (!sameAddress(created.owner, owner)) {
      return {
        code: 'FACTORY_OWNER_MISMATCH',
        message: `The operation creates a vault for ${created.owner}, not for your wallet ${owner}.`,
      }
    }
  } catch {
    // not createAccount at all: reported as unexpected below
  }
  return unexpected
}
