import type { Address } from 'viem'
import { vaultFactoryAbi, vaultSalt } from '../../shared/vaultFactoryAbi'
import type { PayDependencies } from './payDependencies'

/** The owner's payer vault: the factory's address for it at salt 0, deployed or not. */
export function ownersVault({ client, deployment }: PayDependencies, owner: Address): Promise<Address> {
  return client.readContract({ address: deployment.vaultFactory, abi: vaultFactoryAbi, functionName: 'getAddress', args: [owner, vaultSalt] })
}
