import { getAddress, type PublicClient } from 'viem'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { devnetDeploymentFile, readPinnedDeployment } from '../build/readPinnedDeployment'
import type { Deployment } from '../shared/deployment'
import { readTokenFacts } from '../server/chain/tokenFacts'
import { DevnetError } from './devnetError'

const contracts = ['entryPoint', 'token', 'registry', 'vaultFactory', 'paymaster'] as const

export type VerifyPinnedDevnetParameters = { path?: string; compareChainId?: boolean }

/**
 * The pay page verifies against the deployment pinned in its build, by default the committed devnet
 * file: a devnet deployed anywhere else would have the page refuse every payment as unsafe. The
 * addresses are CREATE2 addresses, so a difference means a contract's code or constructor arguments
 * changed; the token's symbol, decimals and permit domain are read from the token itself.
 */
export async function verifyPinnedDevnet(
  deployment: Deployment,
  client: PublicClient,
  { path = devnetDeploymentFile, compareChainId = true }: VerifyPinnedDevnetParameters = {},
): Promise<PinnedDeployment> {
  const pinned = readPinnedDeployment(path)
  // the v0.6 pair and the merchant's contracts are compared where the file pins them: a file written
  // before they were deployed still builds
  const pinnedOptional = (['entryPointV06', 'paymasterV06', 'merchantVaultFactory', 'sessionValidator'] as const).filter((name) => pinned[name] !== undefined)
  const differences = [...contracts, ...pinnedOptional]
    .filter((name) => !deployment[name] || getAddress(deployment[name]) !== getAddress(pinned[name]!))
    .map((name) => `  ${name}: deployed at ${deployment[name]}, pinned ${pinned[name]}`)
  if (compareChainId && deployment.chainId !== pinned.chainId) differences.unshift(`  chainId: ${deployment.chainId}, pinned ${pinned.chainId}`)
  if (differences.length === 0) {
    const facts = await readTokenFacts(client, deployment.token, deployment.chainId)
    if (facts.tokenSymbol !== pinned.tokenSymbol) differences.push(`  tokenSymbol: the token says ${facts.tokenSymbol}, pinned ${pinned.tokenSymbol}`)
    if (facts.tokenDecimals !== pinned.tokenDecimals) differences.push(`  tokenDecimals: the token says ${facts.tokenDecimals}, pinned ${pinned.tokenDecimals}`)
    const { name, version } = facts.permitDomain
    if (name !== pinned.permitDomain.name || version !== pinned.permitDomain.version) {
      differences.push(`  permitDomain: the token signs as "${name}" version "${version}", pinned "${pinned.permitDomain.name}" version "${pinned.permitDomain.version}"`)
    }
  }
  if (differences.length > 0) {
    throw new DevnetError('DEVNET_DIFFERS_FROM_PINNED', `the devnet differs from the deployment pinned in ${path}:\n${differences.join('\n')}\nupdate that file (docs/production.md), so the pay page verifies against what is deployed`)
  }
  return pinned
}
