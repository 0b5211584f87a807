import type { Address, Hex } from 'viem'
import { decodeStaticResult, encodeStaticCall } from '../../shared/staticAbiCall'
import type { Deployment } from '../../shared/deployment'
import { vaultFactoryAbi, vaultSalt } from '../../shared/vaultFactoryAbi'
import type { Eip1193Provider } from '../../shared/eip1193'
import { tokenBalanceOfAbi } from '../../shared/tokenAbi'
import { ethCall } from './ethCall'

/** The owner's vault is wherever the pinned factory says, deployed or not (a counterfactual address). */
export async function readVault(provider: Eip1193Provider, deployment: Deployment, owner: Address): Promise<{ vault: Address; deployed: boolean }> {
  const getVaultAddress = vaultFactoryAbi[1]
  const data = encodeStaticCall(getVaultAddress, [owner, vaultSalt])
  const vault = decodeStaticResult(getVaultAddress, await ethCall(provider, deployment.vaultFactory, data))
  const code = (await provider.request({ method: 'eth_getCode', params: [vault, 'latest'] })) as Hex | null
  return { vault, deployed: typeof code === 'string' && code !== '0x' && code !== '0x0' }
}

export async function readBalance(provider: Eip1193Provider, deployment: Deployment, vault: Address): Promise<bigint> {
  const data = encodeStaticCall(tokenBalanceOfAbi[0], [vault])
  return decodeStaticResult(tokenBalanceOfAbi[0], await ethCall(provider, deployment.token, data))
}
