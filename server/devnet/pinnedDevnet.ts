import { getAddress } from 'viem'
import { devnetDeploymentFile, readPinnedDeployment } from '../../src/config/readPinnedDeployment'
import type { Deployment } from '../../src/shared/deployment'

const contracts = ['entryPoint', 'token', 'registry', 'vaultFactory', 'paymaster'] as const

/** The pay page verifies against the deployment pinned in its build, by default the committed devnet
 * file: a devnet deployed anywhere else would have the page refuse every payment as unsafe. The
 * addresses follow from the deployer's nonces, so a difference means the deploy order changed. */
export function checkPinnedDevnet(deployment: Deployment, { path = devnetDeploymentFile, compareChainId = true } = {}): void {
  const pinned = readPinnedDeployment(path)
  const differences = contracts
    .filter((name) => getAddress(deployment[name]) !== getAddress(pinned[name]))
    .map((name) => `  ${name}: deployed at ${deployment[name]}, pinned ${pinned[name]}`)
  if (compareChainId && deployment.chainId !== pinned.chainId) differences.unshift(`  chainId: ${deployment.chainId}, pinned ${pinned.chainId}`)
  if (differences.length > 0) {
    throw new Error(`the devnet differs from the deployment pinned in ${path}:\n${differences.join('\n')}\nupdate that file, or the deploy order, so the pay page verifies against what is deployed`)
  }
}
