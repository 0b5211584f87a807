import { getContractAddress } from 'viem'
import { entryPoint07Abi, entryPoint07Address } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { verifyingPaymasterAbi } from '../../contracts/artifacts/VerifyingPaymaster'
import { devnetRoles } from '../../server/devnet/deploy'
import { demoPayerFunds } from '../../server/devnet/seed'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()

describe('devnet deployment', () => {
  test('default: EntryPoint v0.7 is at its canonical address and our contracts at the deployer nonces', () => {
    const from = devnetRoles.deployer.address
    // nonce 0 is the CREATE2 call that deploys the EntryPoint
    expect(devnet.deployment).toEqual({
      chainId: 31337,
      entryPoint: entryPoint07Address,
      token: getContractAddress({ from, nonce: 1n }),
      registry: getContractAddress({ from, nonce: 2n }),
      vaultFactory: getContractAddress({ from, nonce: 3n }),
      paymaster: getContractAddress({ from, nonce: 4n }),
    })
    expect(entryPoint07Address).toBe('0x0000000071727De22E5E9d8BAf0edAc6f37da032')
  })

  test('default: the stablecoin has USDC v2.2 metadata and EIP-712 domain', async () => {
    const { clients, deployment } = devnet
    const token = { address: deployment.token, abi: stablecoinAbi } as const
    expect(await clients.public.readContract({ ...token, functionName: 'name' })).toBe('USD Coin')
    expect(await clients.public.readContract({ ...token, functionName: 'symbol' })).toBe('USDC')
    expect(await clients.public.readContract({ ...token, functionName: 'decimals' })).toBe(6)
    const [, name, version, chainId, verifyingContract] = await clients.public.readContract({ ...token, functionName: 'eip712Domain' })
    expect({ name, version, chainId, verifyingContract }).toEqual({ name: 'USD Coin', version: '2', chainId: 31337n, verifyingContract: deployment.token })
  })

  test('default: the paymaster is funded and staked in the EntryPoint', async () => {
    const { clients, deployment } = devnet
    const info = await clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getDepositInfo', args: [deployment.paymaster] })
    expect(info.deposit).toBe(100n * 10n ** 18n)
    expect(info.staked).toBe(true)
    expect(info.stake).toBe(10n ** 18n)
    expect(info.unstakeDelaySec).toBe(86_400)
    expect(await clients.public.readContract({ address: deployment.paymaster, abi: verifyingPaymasterAbi, functionName: 'verifyingSigner' })).toBe(devnetRoles.paymasterSigner.address)
  })

  test('default: the registry accepts the token and charges the retail fee', async () => {
    const { clients, deployment } = devnet
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'acceptedToken', args: [deployment.token] })).toBe(true)
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'retailFeeBps' })).toBe(100)
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'treasury' })).toBe(devnetRoles.treasury.address)
  })

  test('default: the demo merchant vault is deployed and owned by its key; the demo payer vault is funded but not deployed', async () => {
    const { clients, deployment, seed } = devnet
    expect(await clients.public.readContract({ address: seed.merchant.vault, abi: payerVaultAbi, functionName: 'owner' })).toBe(seed.merchant.owner)
    expect(await clients.public.getCode({ address: seed.payer.vault })).toBeUndefined()
    expect(await clients.public.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [seed.payer.vault] })).toBe(demoPayerFunds)
    expect(seed.invoices.length).toBeGreaterThanOrEqual(3)
    for (const invoice of seed.invoices) {
      const stored = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
      expect(stored.status).toBe(1)
      expect(stored.amount).toBe(BigInt(invoice.metadata.amountRaw))
    }
  })
})
