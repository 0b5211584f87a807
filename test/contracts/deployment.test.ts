import { encodeDeployData, getContractAddress, type Hex } from 'viem'
import { entryPoint06Address, entryPoint07Abi, entryPoint07Address } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi, invoiceRegistryBytecode } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { payerVaultFactoryAbi, payerVaultFactoryBytecode } from '../../contracts/artifacts/PayerVaultFactory'
import { stablecoinAbi, stablecoinBytecode } from '../../contracts/artifacts/Stablecoin'
import { merchantVaultFactoryAbi, merchantVaultFactoryBytecode } from '../../contracts/artifacts/MerchantVaultFactory'
import { sessionSignerValidatorAbi, sessionSignerValidatorBytecode } from '../../contracts/artifacts/SessionSignerValidator'
import { ownedVerifyingPaymasterAbi, ownedVerifyingPaymasterBytecode } from '../../contracts/artifacts/OwnedVerifyingPaymaster'
import { ownedDeploymentAbi, ownedDeploymentBytecode } from '../../contracts/artifacts/OwnedDeployment'
import { verifyingPaymasterV06Abi, verifyingPaymasterV06Bytecode } from '../../contracts/artifacts/VerifyingPaymasterV06'
import { checkoutSalt } from '../../deploy/deployCheckout'
import { devnetRoles } from '../../devnet/deploy'
import { demoPayerFunds } from '../../devnet/seed'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()

describe('devnet deployment', () => {
  test('default: EntryPoint v0.7 is at its canonical address and our contracts at their CREATE2 addresses', () => {
    const owner = devnetRoles.deployer.address
    // through the deterministic-deployment proxy: the address follows from code and arguments, not from a nonce
    const create2 = (bytecode: Hex) => getContractAddress({ opcode: 'CREATE2', from: '0x4e59b44847b379578588920ca78fbf26c0b4956c', salt: checkoutSalt, bytecode })
    const sessionValidator = create2(encodeDeployData({ abi: sessionSignerValidatorAbi, bytecode: sessionSignerValidatorBytecode }))
    expect(devnet.deployment).toEqual({
      chainId: 31337,
      entryPoint: entryPoint07Address,
      token: create2(encodeDeployData({ abi: stablecoinAbi, bytecode: stablecoinBytecode, args: [owner] })),
      registry: create2(
        encodeDeployData({ abi: invoiceRegistryAbi, bytecode: invoiceRegistryBytecode, args: [owner, devnetRoles.treasury.address, 100] }),
      ),
      vaultFactory: create2(encodeDeployData({ abi: payerVaultFactoryAbi, bytecode: payerVaultFactoryBytecode, args: [entryPoint07Address] })),
      paymaster: create2(
        encodeDeployData({
          abi: ownedVerifyingPaymasterAbi,
          bytecode: ownedVerifyingPaymasterBytecode,
          args: [entryPoint07Address, devnetRoles.paymasterSigner.address, owner],
        }),
      ),
      entryPointV06: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
      // created by OwnedDeployment (placed through the proxy) at its first nonce, the deployer its owner
      paymasterV06: getContractAddress({
        opcode: 'CREATE',
        nonce: 1n,
        from: create2(
          encodeDeployData({
            abi: ownedDeploymentAbi,
            bytecode: ownedDeploymentBytecode,
            args: [encodeDeployData({ abi: verifyingPaymasterV06Abi, bytecode: verifyingPaymasterV06Bytecode, args: [entryPoint06Address, devnetRoles.paymasterSigner.address] }), owner],
          }),
        ),
      }),
      sessionValidator,
      merchantVaultFactory: create2(encodeDeployData({ abi: merchantVaultFactoryAbi, bytecode: merchantVaultFactoryBytecode, args: [sessionValidator] })),
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
    expect(await clients.public.readContract({ address: deployment.paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'verifyingSigner' })).toBe(devnetRoles.paymasterSigner.address)
  })

  test('behavior: the deployer owns the registry and the paymaster, not the deterministic-deployment proxy', async () => {
    const { clients, deployment } = devnet
    expect(await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'owner' })).toBe(devnetRoles.deployer.address)
    expect(await clients.public.readContract({ address: deployment.paymaster, abi: ownedVerifyingPaymasterAbi, functionName: 'owner' })).toBe(devnetRoles.deployer.address)
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
