import type { Address, Hex } from 'viem'
import { decodeResult, encodeCall } from '../../shared/abiCall'
import type { Deployment } from '../../shared/deployment'
import { vaultFactoryAbi, vaultSalt } from '../../shared/payCall'
import type { Eip1193Provider } from '../../shared/eip1193'
import { tokenBalanceOfAbi } from '../../shared/tokenAbi'
import { ethCall } from './ethCall'

/** The owner's vault is wherever the pinned factory says, deployed or not (a counterfactual address). */
export async function readVault(provider: Eip1193Provider, deployment: Deployment, owner: Address): Promise<{ vault: Address; deployed: boolean }> {
  const getVaultAddress = vaultFactoryAbi[1]
  const data = encodeCall(getVaultAddress, [owner, vaultSalt])
  const vault = decodeResult(getVaultAddress, await ethCall(provider, deployment.vaultFactory, data))
  const code = (await provider.request({ method: 'eth_getCode', params: [vault, 'latest'] })) as Hex | null
  return { vault, deployed: typeof code === 'string' && code !== '0x' && code !== '0x0' }
}

export async function readBalance(provider: Eip1193Provider, deployment: Deployment, vault: Address): Promise<bigint> {
  const data = encodeCall(tokenBalanceOfAbi[0], [vault])
  return decodeResult(tokenBalanceOfAbi[0], await ethCall(provider, deployment.token, data))
}
