import { writeFileSync } from 'node:fs'
import { pinnedDeploymentSchema, type PinnedDeployment, type UserOpLimits } from '../shared/pinnedDeployment'
import type { Deployment } from '../shared/deployment'
import type { TokenFacts } from '../server/chain/tokenFacts'

/** What a sponsored operation may ask for at most (the page refuses more before the payer signs):
 * generous for a payment through an undeployed vault, bounded so the paymaster's deposit is. An
 * operator edits the written file where the chain's gas prices need other bounds. */
export const defaultUserOpLimits: UserOpLimits = {
  callGasLimit: '2000000',
  verificationGasLimit: '2000000',
  preVerificationGas: '500000',
  paymasterVerificationGasLimit: '500000',
  paymasterPostOpGasLimit: '200000',
  maxFeePerGas: '1000000000000',
  maxPriorityFeePerGas: '100000000000',
}

export type PinnedDeploymentOfParameters = {
  deployment: Deployment
  facts: TokenFacts
  /** The RPCs the page reads the chain through: public ones, as the page ships them to every payer. */
  rpcUrls: string[]
  registryFromBlock: bigint
  chainName?: string | undefined
  explorerUrl?: string | undefined
}

/** The deployment a page build pins (SVC_DEPLOYMENT_FILE), the shape of shared/devnet.deployment.json. */
export function pinnedDeploymentOf({ deployment, facts, rpcUrls, registryFromBlock, chainName, explorerUrl }: PinnedDeploymentOfParameters): PinnedDeployment {
  const pinned: PinnedDeployment = {
    chainId: deployment.chainId,
    ...(chainName ? { chainName } : {}),
    rpcUrls,
    ...(explorerUrl ? { explorerUrl } : {}),
    entryPoint: deployment.entryPoint,
    token: deployment.token,
    ...facts,
    registry: deployment.registry,
    registryFromBlock: String(registryFromBlock),
    vaultFactory: deployment.vaultFactory,
    paymaster: deployment.paymaster,
    ...(deployment.entryPointV06 ? { entryPointV06: deployment.entryPointV06 } : {}),
    ...(deployment.paymasterV06 ? { paymasterV06: deployment.paymasterV06 } : {}),
    ...(deployment.merchantVaultFactory ? { merchantVaultFactory: deployment.merchantVaultFactory } : {}),
    ...(deployment.sessionValidator ? { sessionValidator: deployment.sessionValidator } : {}),
    userOpLimits: defaultUserOpLimits,
  }
  // checked as the build will check it; written in the field order of the devnet's file
  pinnedDeploymentSchema.parse(pinned)
  return pinned
}

export function writeDeploymentFile(path: string, pinned: PinnedDeployment): void {
  writeFileSync(path, `${JSON.stringify(pinned, null, 2)}\n`)
}
