import { encodeFunctionData, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { payerVaultFactoryAbi } from '../../contracts/artifacts/PayerVaultFactory'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients, mined } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import type { useDevnet } from './devnet'

/** The vault bubbles the registry's revert data up, so decode with both. */
export const vaultCallAbi = [...payerVaultAbi, ...invoiceRegistryAbi.filter((item) => item.type === 'error')]

/**
 * A payer vault that is deployed and pays `id` with a plain allowance, its owner calling it directly:
 * the registry alone, without the payment's typed message or the EntryPoint.
 */
export async function payDirectly(devnet: ReturnType<typeof useDevnet>, id: bigint, amount: bigint) {
  const payer = await createPayer(devnet.clients, devnet.deployment, amount)
  const owner = privateKeyToAccount(payer.ownerPrivateKey)
  await devnet.test.setBalance({ address: owner.address, value: parseUnits('1', 18) })
  const { public: client, wallet } = devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId, owner)
  await mined(client, await devnet.clients.wallet.writeContract({ address: devnet.deployment.vaultFactory, abi: payerVaultFactoryAbi, functionName: 'createAccount', args: [owner.address, 0n] }))
  const approve = encodeFunctionData({ abi: stablecoinAbi, functionName: 'approve', args: [devnet.deployment.registry, amount] })
  await mined(client, await wallet.writeContract({ address: payer.vault, abi: payerVaultAbi, functionName: 'execute', args: [devnet.deployment.token, 0n, approve] }))
  const pay = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'pay', args: [id, 0n, 0, `0x${'00'.repeat(32)}`, `0x${'00'.repeat(32)}`] })
  const hash = await wallet.writeContract({ address: payer.vault, abi: vaultCallAbi, functionName: 'execute', args: [devnet.deployment.registry, 0n, pay] })
  return { payer, receipt: await mined(client, hash) }
}
