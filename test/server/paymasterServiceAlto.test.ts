import { encodeFunctionData, http, parseAbi, zeroHash, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, createPaymasterClient, entryPoint07Abi, getUserOperationHash, toSmartAccount } from 'viem/account-abstraction'
import { afterAll, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { mintTo } from '../../devnet/seed'
import { stubEcdsaSignature } from '../../server/chain/stubEcdsaSignature'
import { startAlto, type Alto } from '../support/alto'
import { accountOf, deployFactory, simpleAccountFactoryV07 } from '../support/paymasterAccounts'
import { useServer } from '../support/server'

let alto: Alto | undefined
const ctx = useServer({
  async beforeServer(devnet) {
    alto = await startAlto({ rpcUrl: devnet.anvil.rpcUrl, entryPoint: devnet.deployment.entryPoint })
    return {}
  },
})
// registered after useServer's hooks, so it runs before them: alto stops while its chain is still up
afterAll(async () => {
  await alto?.stop()
})

const amount = 12_340_000n
const erc20 = parseAbi(['function approve(address spender, uint256 value) returns (bool)'])
const payAbi = parseAbi(['function pay(uint256 id, uint256 deadline, uint8 v, bytes32 r, bytes32 s)'])
const simpleAccountAbi = parseAbi(['function executeBatch(address[] dest, uint256[] value, bytes[] func)'])

describe('POST /v1/paymaster', () => {
  test("behavior: viem's ERC-7677 flow against the service and alto (stub data, alto's gas estimate, signed data) sends an eth-infinitism SimpleAccount v0.7's payment: Paid, debited exactly the amount, no ether; its next operation one nonce ahead is refused, at its current nonce it pays", async () => {
    const { deployment, clients } = ctx.devnet
    const factory = await deployFactory(clients, simpleAccountFactoryV07, deployment.entryPoint)
    const owner = privateKeyToAccount(generatePrivateKey())
    const { sender, factoryData } = await accountOf(clients, factory, owner)
    await mintTo(clients, deployment, sender, amount)
    const invoice = await ctx.devnet.newInvoice(amount)

    // a smart wallet as viem builds one: the service and alto are all it is told about
    const account = await toSmartAccount({
      client: clients.public,
      entryPoint: { abi: entryPoint07Abi, address: deployment.entryPoint, version: '0.7' },
      getAddress: async () => sender,
      getFactoryArgs: async () => ({ factory, factoryData }),
      encodeCalls: async (calls) =>
        encodeFunctionData({ abi: simpleAccountAbi, functionName: 'executeBatch', args: [calls.map((c) => c.to), calls.map((c) => c.value ?? 0n), calls.map((c) => c.data ?? '0x')] }),
      getStubSignature: async () => stubEcdsaSignature,
      signMessage: async () => {
        throw new Error('not used')
      },
      signTypedData: async () => {
        throw new Error('not used')
      },
      async signUserOperation({ chainId = deployment.chainId, ...userOperation }) {
        const hash = getUserOperationHash({ chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: { ...userOperation, sender } as never })
        return owner.signMessage({ message: { raw: hash } })
      },
    })
    const bundler = createBundlerClient({
      client: clients.public,
      transport: http(alto!.url),
      paymaster: createPaymasterClient({ transport: http(`${ctx.server.url}/v1/paymaster`) }),
      pollingInterval: 100,
    })
    const userOpHash = await bundler.sendUserOperation({
      account,
      calls: [
        { to: deployment.token, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [deployment.registry, amount] }) },
        { to: deployment.registry, data: encodeFunctionData({ abi: payAbi, functionName: 'pay', args: [invoice.id, 0n, 0, zeroHash, zeroHash] }) },
      ],
    })
    const receipt = await bundler.waitForUserOperationReceipt({ hash: userOpHash as Hex, timeout: 30_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(deployment.paymaster)

    const onChain = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
    expect(onChain.status).toBe(2)
    expect(onChain.payer).toBe(sender)
    expect(await ctx.devnet.balanceOf(sender)).toBe(0n)
    expect(await clients.public.getBalance({ address: sender })).toBe(0n)
    // both ERC-7677 calls were made, and counted once as a sponsorship
    const metrics = await (await fetch(`${ctx.server.url}/metrics`)).text()
    expect(metrics).toContain('svc_checkout_prepares_total{outcome="ok"} 1\n')

    // the account's next operation may only be its next nonce: one ahead (which alto would queue) is
    // refused before anything is signed; the current one is sponsored and runs
    const next = await ctx.devnet.newInvoice(amount)
    await mintTo(clients, deployment, sender, amount)
    const nextCalls = [
      { to: deployment.token, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [deployment.registry, amount] }) },
      { to: deployment.registry, data: encodeFunctionData({ abi: payAbi, functionName: 'pay', args: [next.id, 0n, 0, zeroHash, zeroHash] }) },
    ]
    await expect(bundler.sendUserOperation({ account, nonce: 2n, calls: nextCalls })).rejects.toThrow(/NONCE_NOT_CURRENT|not the sender's next one/)
    const nextHash = await bundler.sendUserOperation({ account, calls: nextCalls })
    expect((await bundler.waitForUserOperationReceipt({ hash: nextHash as Hex, timeout: 30_000 })).success).toBe(true)
    expect((await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [next.id] })).status).toBe(2)
  }, 60_000)
})
