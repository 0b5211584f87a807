import type { Address, Hex } from 'viem'
import { entryPoint06Address } from 'viem/account-abstraction'
import { entryPointV06Bytecode } from '../contracts/artifacts/EntryPointV06'
import type { DeployerClients } from './deployerClients'
import { create2Address, DeterministicDeploymentError, deployDeterministic, type Step } from './deterministicDeployer'

/** The salt of the eth-infinitism 0.6.0 release: zero. With the packaged bytecode it yields 0x5FF137D4…. */
const entryPointV06Salt: Hex = `0x${'00'.repeat(32)}`

/** EntryPoint v0.6 (the one Coinbase Smart Wallet and Base Account use) at its canonical address,
 * from the 0.6.0 release's init code through the deterministic-deployment proxy, where the chain lacks it. */
export async function ensureEntryPointV06(clients: DeployerClients): Promise<Step<Address>> {
  const predicted = create2Address(entryPointV06Salt, entryPointV06Bytecode)
  if (predicted !== entryPoint06Address) {
    throw new DeterministicDeploymentError(`the packaged EntryPoint v0.6 would land at ${predicted}, not ${entryPoint06Address}: the artifact is not the 0.6.0 release`)
  }
  return deployDeterministic(clients, { salt: entryPointV06Salt, initCode: entryPointV06Bytecode })
}
