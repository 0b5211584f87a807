// @vitest-environment happy-dom
import { createPublicClient, getAddress, http, numberToHex, parseSignature, recoverTypedDataAddress, type Address, type Hex, type TypedDataDefinition } from 'viem'
import { entryPoint07Abi, getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { bridgedSignUserOperation } from '../../shared/embedProtocol'
import { createWalletBridge, type WalletBridge } from '../../embed/walletBridge'
import { devnetRoles } from '../../devnet/deploy'
import { permitTypedData, permitTypedDataJson } from '../../shared/permit'
import type { Funding } from '../../shared/fundedPayCall'
import { decodePayCallData, encodePayCallData, type PermitSignature } from '../../shared/payCall'
import { paymentMessage, paymentTypedData } from '../../shared/paymentMessage'
import { fromWireUserOp } from '../../shared/userOpWire'
import { prepareTestPayment, testInvoice } from '../../src/verify/preparedPayment.fixture'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()
let bridge: WalletBridge | undefined
afterEach(() => bridge?.destroy())

/**
 * The host page with one EIP-6963 wallet: a real key that signs with viem, reads that go to the devnet's
 * anvil. `signed` lists every signature the wallet was asked for: what a refusal must leave empty.
 */
function hostWallet(ownerPrivateKey: Hex, { chainId = devnet.deployment.chainId } = {}) {
  const account = privateKeyToAccount(ownerPrivateKey)
  const node = createPublicClient({ transport: http(devnet.anvil.rpcUrl) })
  const signed: { method: string; params: unknown[] }[] = []
  const provider = {
    async request({ method, params = [] }: { method: string; params?: unknown[] }) {
      if (method === 'eth_chainId') return numberToHex(chainId)
      if (method === 'eth_signTypedData_v4') {
        signed.push({ method, params })
        const { types, ...rest } = JSON.parse(params[1] as string) as TypedDataDefinition & { types: Record<string, unknown> }
        const { EIP712Domain: _, ...structs } = types
        return account.signTypedData({ ...rest, types: structs } as TypedDataDefinition)
      }
      if (method === 'personal_sign') {
        signed.push({ method, params })
        return account.signMessage({ message: { raw: params[0] as Hex } })
      }
      return node.request({ method, params } as never)
    },
  }
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info: { uuid: 'u1', name: 'W', icon: '', rdns: 'x.w' }, provider } }))
  window.addEventListener('eip6963:requestProvider', announce)
  return { account, signed, stopAnnouncing: () => window.removeEventListener('eip6963:requestProvider', announce) }
}

/** The bridge a host page mounting `invoiceId` starts, with one payer's wallet on it. */
async function hostBridge(invoiceId: bigint, options: { chainId?: number; funds?: bigint; accountFunds?: bigint } = {}) {
  const payer = await devnet.newPayer(options.funds ?? 10_000_000_000n, options.accountFunds ?? 0n)
  const wallet = hostWallet(payer.ownerPrivateKey, options)
  bridge = createWalletBridge({ deployment: devnet.pinned, invoiceId: invoiceId.toString(), paymasterServiceUrl: 'http://127.0.0.1:8787/v1/paymaster', onChange() {}, onEvent() {} })
  wallet.stopAnnouncing()
  return { bridge, payer, ...wallet }
}

const deadline = async (secondsAhead = 3600) => (await devnet.clients.public.getBlock()).timestamp + BigInt(secondsAhead)

/** The permit the frame asks the host wallet to sign, as the page builds it (createWalletSession). */
function permitJson(message: { owner: Address; spender: Address; value: bigint; nonce?: bigint; deadline: bigint }, domain: Partial<{ name: string; version: string; verifyingContract: Address }> = {}) {
  const { pinned } = devnet
  return permitTypedDataJson(
    permitTypedData(
      { ...pinned.permitDomain, chainId: pinned.chainId, verifyingContract: pinned.token, ...domain },
      { nonce: 0n, ...message },
    ),
  )
}

/** The invoice as the registry holds it (its number too), in the wire form a server answers. */
async function chainInvoice(id: bigint, amount: bigint) {
  const record = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
  return testInvoice(devnet.pinned, { id: id.toString(), invoiceNumber: record.invoiceNumber.toString(), amount: amount.toString(), merchant: devnet.seed.merchant.vault })
}

/** An honest server's funded operation for a payer whose vault is not deployed yet. */
async function preparedFunded({ id, amount, vault, owner, permit, funding }: { id: bigint; amount: bigint; vault: Address; owner: Address; permit: PermitSignature; funding: Funding }) {
  const invoice = await chainInvoice(id, amount)
  return prepareTestPayment({ deployment: devnet.pinned, invoice, vault, owner, vaultDeployed: false, permit, funding, paymasterSigner: devnetRoles.paymasterSigner })
}

/** What a bundler does with the signed operation: the EntryPoint runs it on the devnet. */
async function handleOps(userOp: UserOperation<'0.7'>) {
  const hash = await devnet.clients.wallet.writeContract({
    address: devnet.deployment.entryPoint,
    abi: entryPoint07Abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation(userOp)], devnetRoles.bundler.address],
  })
  await devnet.clients.public.waitForTransactionReceipt({ hash })
}

/** The RPC error code a refused request fails with, or 'relayed'. */
function outcome(promise: Promise<unknown>) {
  return promise.then(
    () => 'relayed',
    (error: { code?: number }) => error.code,
  )
}

function split(signature: Hex, permitDeadline: bigint): PermitSignature {
  const { r, s, yParity } = parseSignature(signature)
  return { deadline: permitDeadline, v: yParity + 27, r, s }
}

describe('the wallet bridge, host side', () => {
  test('default: signs this invoice\'s permit and the operation that carries it; the operation pays on-chain', async () => {
    const amount = 248_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id)
    const permitDeadline = await deadline()
    const permitSignature = (await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: permitDeadline }),
    ])) as Hex
    const permit = split(permitSignature, permitDeadline)

    const prepared = await prepareTestPayment({
      deployment: devnet.pinned,
      invoice: await chainInvoice(id, amount),
      vault: payer.vault,
      owner: account.address,
      vaultDeployed: false,
      permit,
      paymasterSigner: devnetRoles.paymasterSigner,
    })
    const signature = (await bridge.request('u1', bridgedSignUserOperation, [prepared.userOp, account.address])) as Hex
    // the host hashed the operation itself and had the wallet sign the Payment message it built
    // from it: the invoice on the chain, and that operation, nothing else
    expect(signed.map(({ method }) => method)).toEqual(['eth_signTypedData_v4', 'eth_signTypedData_v4'])
    const shown = JSON.parse(signed[1]!.params[1] as string) as { primaryType: string; message: Record<string, string> }
    expect(shown.primaryType).toBe('Payment')
    expect(shown.message).toMatchObject({ invoice: id.toString(), merchant: devnet.seed.merchant.vault, amount: amount.toString(), vault: payer.vault, operation: prepared.userOpHash })
    const message = paymentMessage(decodePayCallData(prepared.userOp.callData), payer.vault, prepared.userOpHash)
    expect(await recoverTypedDataAddress({ ...paymentTypedData(devnet.deployment.chainId, message), signature })).toBe(account.address)

    await handleOps({ ...fromWireUserOp(prepared.userOp), signature })
    const onchain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    expect({ status: onchain.status, payer: getAddress(onchain.payer) }).toEqual({ status: 2, payer: payer.vault })
  })

  test.each([
    ['an attacker as spender, from the payer\'s own account', (p: Permits) => ({ owner: p.account, spender: p.attacker, value: p.amount * 1000n })],
    ['an attacker as spender, from the vault', (p: Permits) => ({ owner: p.vault, spender: p.attacker, value: p.amount })],
    ['more than the invoice amount', (p: Permits) => ({ owner: p.vault, spender: p.registry, value: p.amount + 1n })],
    ['another invoice\'s amount', (p: Permits) => ({ owner: p.vault, spender: p.registry, value: 30_000_000_000n })],
    ['the wrong permit nonce', (p: Permits) => ({ owner: p.vault, spender: p.registry, value: p.amount, nonce: 5n })],
    ['a deadline two days out', (p: Permits) => ({ owner: p.vault, spender: p.registry, value: p.amount, deadline: p.deadline + 2n * 86_400n })],
  ])('behavior: a permit with %s is refused before the wallet sees it', async (_, message) => {
    const amount = 50_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id)
    const p = { account: account.address, vault: payer.vault, attacker: privateKeyToAccount(generatePrivateKey()).address, registry: devnet.deployment.registry, amount, deadline: await deadline() }
    const request = permitJson({ deadline: p.deadline, ...message(p) })
    expect(await outcome(bridge.request('u1', 'eth_signTypedData_v4', [account.address, request]))).toBe(4100)
    expect(signed).toEqual([])
  })

  test.each([
    ['another token contract', { verifyingContract: '0x1111111111111111111111111111111111111111' as Address }],
    ['another domain version', { version: '1' }],
  ])('behavior: a permit for %s is refused before the wallet sees it', async (_, domain) => {
    const amount = 50_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id)
    const request = permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: await deadline() }, domain)
    expect(await outcome(bridge.request('u1', 'eth_signTypedData_v4', [account.address, request]))).toBe(4100)
    expect(signed).toEqual([])
  })

  test('behavior: a wallet on another chain signs nothing', async () => {
    const amount = 50_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id, { chainId: 1 })
    const request = permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: await deadline() })
    expect(await outcome(bridge.request('u1', 'eth_signTypedData_v4', [account.address, request]))).toBe(4100)
    expect(signed).toEqual([])
  })

  test('behavior: a bare hash is never relayed for signing, whatever it is', async () => {
    const { id } = await devnet.newInvoice(50_000_000n)
    const { bridge, account, signed } = await hostBridge(id)
    expect(await outcome(bridge.request('u1', 'personal_sign', [`0x${'0e'.repeat(32)}`, account.address]))).toBe(4200)
    expect(signed).toEqual([])
  })

  test('behavior: an operation is signed only after this host signed its permit, and only if it pays exactly this invoice', async () => {
    const amount = 50_000_000n
    const { id } = await devnet.newInvoice(amount)
    const other = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id)
    const permitDeadline = await deadline()
    const honest = {
      deployment: devnet.pinned,
      invoice: await chainInvoice(id, amount),
      vault: payer.vault,
      owner: account.address,
      vaultDeployed: false,
      paymasterSigner: devnetRoles.paymasterSigner,
    }
    const unsignedPermit = split(`0x${'11'.repeat(32)}${'22'.repeat(32)}1b`, permitDeadline)
    const early = await prepareTestPayment({ ...honest, permit: unsignedPermit })
    expect(await outcome(bridge.request('u1', bridgedSignUserOperation, [early.userOp, account.address]))).toBe(4100)

    const permitSignature = (await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: permitDeadline }),
    ])) as Hex
    const permit = split(permitSignature, permitDeadline)
    const attacks = [
      // another invoice of the same amount, with the permit just signed
      await prepareTestPayment({ ...honest, permit, tamper: (op) => ({ ...op, callData: encodePayCallData({ registry: devnet.deployment.registry, invoiceId: other.id, invoiceNumber: other.invoiceNumber, merchant: devnet.seed.merchant.vault, token: devnet.deployment.token, amount, feeBps: 100, permit }) }) }),
      // a sponsorship that never ends: a held operation could pay long after the payer was told it lapsed
      await prepareTestPayment({ ...honest, permit, sponsorship: { validUntil: 0, validAfter: 0 } }),
      // a second nonce key: several operations valid at once
      await prepareTestPayment({ ...honest, permit, nonce: 1n << 64n }),
      // sent by another account
      await prepareTestPayment({ ...honest, permit, tamper: (op) => ({ ...op, sender: privateKeyToAccount(generatePrivateKey()).address }) }),
    ]
    for (const prepared of attacks) {
      expect(await outcome(bridge.request('u1', bridgedSignUserOperation, [prepared.userOp, account.address]))).toBe(4100)
    }
    expect(signed.map(({ method }) => method)).toEqual(['eth_signTypedData_v4'])
    // the honest one is still signed: its Payment message names the hash the host computed
    const honestOp = await prepareTestPayment({ ...honest, permit })
    expect(await outcome(bridge.request('u1', bridgedSignUserOperation, [honestOp.userOp, account.address]))).toBe('relayed')
    const shown = JSON.parse(signed.at(-1)!.params[1] as string) as { primaryType: string; message: { operation: string } }
    expect(shown.primaryType).toBe('Payment')
    expect(shown.message.operation).toBe(
      getUserOperationHash({ chainId: devnet.pinned.chainId, entryPointAddress: devnet.pinned.entryPoint, entryPointVersion: '0.7', userOperation: { ...fromWireUserOp(honestOp.userOp), signature: '0x' } }),
    )
  })

  test('behavior: paying from the wallet: the funding permit and the vault\'s are signed, then the funded operation; it pays on-chain and the vault ends empty', async () => {
    const amount = 248_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id, { funds: 47_000_000n, accountFunds: 500_000_000n })
    const permitDeadline = await deadline()
    const fundingSignature = (await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: account.address, spender: payer.vault, value: 201_000_000n, deadline: permitDeadline }),
    ])) as Hex
    const permitSignature = (await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: permitDeadline }),
    ])) as Hex
    const funding = { from: account.address, to: payer.vault, amount: 201_000_000n, permit: split(fundingSignature, permitDeadline) }
    const prepared = await preparedFunded({ id, amount, vault: payer.vault, owner: account.address, permit: split(permitSignature, permitDeadline), funding })
    const signature = (await bridge.request('u1', bridgedSignUserOperation, [prepared.userOp, account.address])) as Hex
    expect(signed.map(({ method }) => method)).toEqual(['eth_signTypedData_v4', 'eth_signTypedData_v4', 'eth_signTypedData_v4'])
    await handleOps({ ...fromWireUserOp(prepared.userOp), signature })
    const onchain = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
    expect(onchain.status).toBe(2)
    expect(await devnet.balanceOf(account.address)).toBe(299_000_000n)
    expect(await devnet.balanceOf(payer.vault)).toBe(0n)
  })

  test.each([
    ['an attacker as spender', (p: Permits) => ({ owner: p.account, spender: p.attacker, value: p.amount })],
    ['more than the vault lacks', (p: Permits) => ({ owner: p.account, spender: p.vault, value: p.amount + 1n })],
    ['another owner\'s funds', (p: Permits) => ({ owner: p.attacker, spender: p.vault, value: p.amount })],
    ['the wrong permit nonce', (p: Permits) => ({ owner: p.account, spender: p.vault, value: p.amount, nonce: 3n })],
  ])('behavior: a funding permit with %s is refused before the wallet sees it', async (_, message) => {
    const { id } = await devnet.newInvoice(50_000_000n)
    const { bridge, payer, account, signed } = await hostBridge(id, { funds: 0n, accountFunds: 100_000_000n })
    const p = { account: account.address, vault: payer.vault, attacker: privateKeyToAccount(generatePrivateKey()).address, registry: devnet.deployment.registry, amount: 50_000_000n, deadline: await deadline() }
    expect(await outcome(bridge.request('u1', 'eth_signTypedData_v4', [account.address, permitJson({ deadline: p.deadline, ...message(p) })]))).toBe(4100)
    expect(signed).toEqual([])
  })

  test("behavior: a vault permit that ends before the funding permit this host signed is refused: the funding could outlive the payment", async () => {
    const amount = 248_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id, { funds: 47_000_000n, accountFunds: 500_000_000n })
    const fundingDeadline = await deadline()
    await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: account.address, spender: payer.vault, value: 201_000_000n, deadline: fundingDeadline }),
    ])
    const refused = await outcome(
      bridge.request('u1', 'eth_signTypedData_v4', [
        account.address,
        permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: fundingDeadline - 60n }),
      ]),
    )
    expect(refused).toBe(4100)
    expect(signed.map(({ method }) => method)).toEqual(['eth_signTypedData_v4'])
  })

  test('behavior: a funded operation is refused when this host signed no funding permit for it', async () => {
    const amount = 50_000_000n
    const { id } = await devnet.newInvoice(amount)
    const { bridge, payer, account, signed } = await hostBridge(id, { funds: 0n, accountFunds: 100_000_000n })
    const permitDeadline = await deadline()
    const permitSignature = (await bridge.request('u1', 'eth_signTypedData_v4', [
      account.address,
      permitJson({ owner: payer.vault, spender: devnet.deployment.registry, value: amount, deadline: permitDeadline }),
    ])) as Hex
    const unsignedFunding = { from: account.address, to: payer.vault, amount, permit: split(`0x${'11'.repeat(32)}${'22'.repeat(32)}1b`, permitDeadline) }
    const prepared = await preparedFunded({ id, amount, vault: payer.vault, owner: account.address, permit: split(permitSignature, permitDeadline), funding: unsignedFunding })
    expect(await outcome(bridge.request('u1', bridgedSignUserOperation, [prepared.userOp, account.address]))).toBe(4100)
    expect(signed.map(({ method }) => method)).toEqual(['eth_signTypedData_v4'])
  })

  test('behavior: the wallet is only asked to switch to the checkout\'s chain, and never to add one', async () => {
    const { id } = await devnet.newInvoice(50_000_000n)
    const { bridge } = await hostBridge(id)
    expect(await outcome(bridge.request('u1', 'wallet_switchEthereumChain', [{ chainId: '0x1' }]))).toBe(4100)
    expect(await outcome(bridge.request('u1', 'wallet_addEthereumChain', [{ chainId: '0x7a69', rpcUrls: ['https://evil.example'] }]))).toBe(4200)
  })
})

type Permits = { account: Address; vault: Address; attacker: Address; registry: Address; amount: bigint; deadline: bigint }
