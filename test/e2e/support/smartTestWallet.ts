import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  hexToBigInt,
  http,
  numberToHex,
  parseEther,
  parseEventLogs,
  type Abi,
  type Address,
  type Hex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { selfBundlerGas } from '../../support/selfBundlerGas'
import {
  entryPoint06Abi,
  entryPoint07Abi,
  entryPoint07Address,
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'

const require = createRequire(import.meta.url)
type Artifact = { abi: Abi; bytecode: Hex }
const artifact = (pkg: string, name: string): Artifact => JSON.parse(readFileSync(require.resolve(`${pkg}/artifacts/${name}.json`), 'utf8')) as Artifact
/** eth-infinitism's releases, as published: SimpleAccount v0.7 and, for the wallets on EntryPoint v0.6
 * (Coinbase Smart Wallet, Base Account), SimpleAccount v0.6. */
const releases = {
  '0.7': { account: artifact('@account-abstraction/contracts', 'SimpleAccount'), factory: artifact('@account-abstraction/contracts', 'SimpleAccountFactory') },
  '0.6': { account: artifact('@account-abstraction/contracts-v06', 'SimpleAccount'), factory: artifact('@account-abstraction/contracts-v06', 'SimpleAccountFactory') },
}
export type EntryPointVersion = keyof typeof releases

/** What the wallet was asked to do in one `wallet_sendCalls`, as it received it. */
export type SentCalls = { version: string; from: Address; chainId: Hex; atomicRequired: boolean; calls: { to: Address; data: Hex; value?: Hex }[]; capabilities: Record<string, unknown> }

/** A batch as the wallet holds it: `status` is the EIP-5792 code it reports. */
type Batch = { status: number; receipts: unknown[] }

export type SmartTestWallet = {
  /** The smart account (SimpleAccount v0.7 or v0.6) the wallet pays from; it never holds ETH. */
  account: Address
  /** Every method the page asked, in order. */
  requests: string[]
  /** Every wallet_sendCalls request, as sent. */
  sent: SentCalls[]
  /** Every ERC-7677 request the wallet made to the paymaster service the page named, and its URL. */
  paymasterRequests: { url: string; method: string }[]
  /** The next wallet_sendCalls is refused with EIP-1193 4001, as a payer pressing "Reject". */
  rejectNext(): void
  /** The wallet lies: it takes the next batch, sends nothing, and reports it confirmed (200). */
  lieNext(): void
  /** Leaves the next wallet_sendCalls unanswered until released: the wallet's prompt is open. */
  holdNext(): Promise<() => void>
  /** The payer picks another account in the wallet: a SimpleAccount of its own for `ownerKey`; later
   * batches run from it, and the page hears accountsChanged. `prepare` runs once the account exists,
   * before the page hears of it (to fund it, say). */
  switchAccount(ownerKey: Hex, prepare?: (account: Address) => Promise<void>): Promise<Address>
  /** The payer moves the wallet to another chain: the page hears chainChanged. */
  switchChain(chainId: number): Promise<void>
}

export type InjectSmartTestWalletParameters = {
  /** The smart account's owner key: it signs the user operation's hash (EIP-191), as SimpleAccount v0.7 checks. */
  ownerKey: Hex
  rpcUrl: string
  chainId: number
  /** What wallet_getCapabilities answers for the chain; by default atomic batches and a paymaster service. */
  capabilities?: Record<string, unknown>
  /** The account's EntryPoint: v0.7 at its canonical address by default, or v0.6 at `entryPoint`. */
  entryPointVersion?: EntryPointVersion
  entryPoint?: Address
  name?: string
  /** Announce only in the top window, as the many extensions that do not inject into iframes. */
  topOnly?: boolean
  /** A batch that names no paymaster service runs with the account paying its own fee (it needs ETH),
   * as a wallet does for calls no paymaster sponsors; without this it is refused (5700). */
  paysOwnFees?: boolean
}

/**
 * Deploys the stock SimpleAccountFactory (eth-infinitism, of the EntryPoint's version) and a
 * SimpleAccount for `owner`, from a throwaway funded key: the account itself is never given ETH.
 */
export async function deploySimpleAccount(rpcUrl: string, owner: Address, version: EntryPointVersion, entryPoint: Address): Promise<{ account: Address; executorKey: Hex }> {
  const simpleAccountFactory = releases[version].factory
  const executorKey = generatePrivateKey()
  const executor = privateKeyToAccount(executorKey)
  await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({ address: executor.address, value: parseEther('10') })
  const wallet = createWalletClient({ account: executor, transport: http(rpcUrl) })
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const deployed = await chain.waitForTransactionReceipt({
    hash: await wallet.deployContract({ chain: null, abi: simpleAccountFactory.abi, bytecode: simpleAccountFactory.bytecode, args: [entryPoint] }),
  })
  const factory = deployed.contractAddress!
  await chain.waitForTransactionReceipt({ hash: await wallet.writeContract({ chain: null, address: factory, abi: simpleAccountFactory.abi, functionName: 'createAccount', args: [owner, 0n] }) })
  const account = (await chain.readContract({ address: factory, abi: simpleAccountFactory.abi, functionName: 'getAddress', args: [owner, 0n] })) as Address
  return { account, executorKey }
}

async function paymasterRpc(url: string, method: string, params: unknown[]) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await response.json()) as { result?: Record<string, Hex>; error?: { code: number; message: string } }
  if (!body.result) throw Object.assign(new Error(`the paymaster service refused: ${body.error?.message ?? response.status}`), { code: body.error?.code ?? -32603 })
  return body.result
}

/**
 * A smart wallet (EIP-5792) announced by EIP-6963 inside the page, paying from eth-infinitism's
 * SimpleAccount (v0.7, or v0.6 as Coinbase Smart Wallet's EntryPoint) with a real owner key held in the test process. For `wallet_sendCalls` it does
 * what an ERC-4337 wallet does: encodes the calls as the account's executeBatch, asks the
 * `paymasterService` URL the page gave it (ERC-7677: stub data, then data), signs the operation's
 * hash with the owner key and submits it to the real EntryPoint with its own `handleOps`, from its
 * own funded executor. Nothing is mocked: the chain checks every signature.
 */
export async function injectSmartTestWallet(page: Page, options: InjectSmartTestWalletParameters): Promise<SmartTestWallet> {
  let owner = privateKeyToAccount(options.ownerKey)
  const version = options.entryPointVersion ?? '0.7'
  const entryPoint = options.entryPoint ?? entryPoint07Address
  const first = await deploySimpleAccount(options.rpcUrl, owner.address, version, entryPoint)
  let account = first.account
  const { executorKey } = first
  const executor = privateKeyToAccount(executorKey)
  const chain = createPublicClient({ transport: http(options.rpcUrl) })
  const chainHex = numberToHex(options.chainId)
  let chainId = options.chainId
  const requests: string[] = []
  const sent: SentCalls[] = []
  const paymasterRequests: { url: string; method: string }[] = []
  const batches = new Map<string, Batch>()
  let reject = false
  let lie = false
  let hold: { arrived: () => void; released: Promise<void> } | null = null
  const binding = `__svcSmartWallet_${Math.random().toString(36).slice(2)}`

  /** The batch as one sponsored user operation of the account's EntryPoint version, handled on-chain
   * by the wallet's own executor; resolves with its EIP-5792 status and receipts. */
  async function execute(request: SentCalls): Promise<Batch> {
    const paymasterService = request.capabilities.paymasterService as { url: string; context?: unknown } | undefined
    const to = request.calls.map((call) => call.to)
    const data = request.calls.map((call) => call.data)
    const callData =
      version === '0.7'
        ? encodeFunctionData({ abi: releases['0.7'].account.abi, functionName: 'executeBatch', args: [to, request.calls.map((call) => (call.value ? hexToBigInt(call.value) : 0n)), data] })
        : // v0.6's executeBatch carries no values: a batch with one is not this account's to run
          encodeFunctionData({ abi: releases['0.6'].account.abi, functionName: 'executeBatch', args: [to, data] })
    if (version === '0.6' && request.calls.some((call) => call.value && hexToBigInt(call.value) !== 0n)) throw new Error('SimpleAccount v0.6 sends no value in a batch')
    const entryPointAbi = version === '0.7' ? entryPoint07Abi : entryPoint06Abi
    const [nonce, fees] = await Promise.all([
      chain.readContract({ address: entryPoint, abi: entryPointAbi, functionName: 'getNonce', args: [account, 0n] }) as Promise<bigint>,
      chain.estimateFeesPerGas(),
    ])
    const common = {
      sender: account,
      nonce,
      callData,
      callGasLimit: 300_000n,
      verificationGasLimit: 150_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      // a placeholder of an ECDSA signature's form (viem's, for SimpleAccount-like accounts): the
      // account checks it, fails it softly, and its cost is measured
      signature: '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c' as Hex,
    }
    let userOp: UserOperation<'0.7'> | UserOperation<'0.6'> = version === '0.7' ? common : { ...common, initCode: '0x', paymasterAndData: '0x' }
    const ask = async (method: 'pm_getPaymasterStubData' | 'pm_getPaymasterData') => {
      if (!paymasterService) return
      paymasterRequests.push({ url: paymasterService.url, method })
      const result = await paymasterRpc(paymasterService.url, method, [formatUserOperationRequest(userOp), entryPoint, chainHex, paymasterService.context ?? {}])
      if (version === '0.6') {
        userOp = { ...(userOp as UserOperation<'0.6'>), paymasterAndData: result.paymasterAndData as Hex }
        return
      }
      const current = userOp as UserOperation<'0.7'>
      userOp = {
        ...current,
        paymaster: result.paymaster as Address,
        paymasterData: result.paymasterData as Hex,
        paymasterVerificationGasLimit: result.paymasterVerificationGasLimit ? hexToBigInt(result.paymasterVerificationGasLimit) : (current.paymasterVerificationGasLimit ?? 100_000n),
        paymasterPostOpGasLimit: result.paymasterPostOpGasLimit ? hexToBigInt(result.paymasterPostOpGasLimit) : (current.paymasterPostOpGasLimit ?? 0n),
      }
    }
    await ask('pm_getPaymasterStubData')
    // estimated with the stub's paymaster fields in place, as a wallet asks its bundler; the service
    // signs only gas the operation measures, with a margin
    if (paymasterService) {
      const gas =
        version === '0.7'
          ? await selfBundlerGas(chain, { version, entryPoint, chainId: options.chainId, userOp: userOp as UserOperation<'0.7'> })
          : await selfBundlerGas(chain, { version, entryPoint, chainId: options.chainId, userOp: userOp as UserOperation<'0.6'> })
      userOp = { ...userOp, ...gas }
    }
    await ask('pm_getPaymasterData')
    const hash =
      version === '0.7'
        ? getUserOperationHash({ chainId: options.chainId, entryPointAddress: entryPoint, entryPointVersion: '0.7', userOperation: userOp as UserOperation<'0.7'> })
        : getUserOperationHash({ chainId: options.chainId, entryPointAddress: entryPoint, entryPointVersion: '0.6', userOperation: userOp as UserOperation<'0.6'> })
    // SimpleAccount (both versions) checks the owner's EIP-191 signature of the operation's hash
    userOp = { ...userOp, signature: await owner.signMessage({ message: { raw: hash } }) }
    const bundler = createWalletClient({ account: executor, transport: http(options.rpcUrl) })
    const tx =
      version === '0.7'
        ? await bundler.writeContract({ chain: null, address: entryPoint, abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(userOp as UserOperation<'0.7'>)], executor.address], gas: 2_000_000n })
        : await bundler.writeContract({ chain: null, address: entryPoint, abi: entryPoint06Abi, functionName: 'handleOps', args: [[{ ...(userOp as UserOperation<'0.6'>), initCode: '0x', paymasterAndData: (userOp as UserOperation<'0.6'>).paymasterAndData ?? '0x' }], executor.address], gas: 2_000_000n })
    const receipt = await chain.waitForTransactionReceipt({ hash: tx })
    const [event] = parseEventLogs({ abi: entryPointAbi, eventName: 'UserOperationEvent', logs: receipt.logs })
    const ok = receipt.status === 'success' && (event?.args as { success?: boolean } | undefined)?.success === true
    return { status: ok ? 200 : 500, receipts: [{ status: ok ? '0x1' : '0x0', transactionHash: tx, blockHash: receipt.blockHash, blockNumber: numberToHex(receipt.blockNumber), gasUsed: numberToHex(receipt.gasUsed), logs: [] }] }
  }

  await page.exposeBinding(binding, async (_source, method: string, params: unknown[] = []) => {
    requests.push(method)
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [account] }
      case 'eth_chainId':
        return { result: numberToHex(chainId) }
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt((params[0] as { chainId: string }).chainId, 16)
        if (wanted !== options.chainId) return { error: { code: 4902, message: 'Unrecognized chain ID.' } }
        chainId = wanted
        return { result: null, event: { name: 'chainChanged', data: numberToHex(chainId) } }
      }
      case 'wallet_getCapabilities': {
        const [address, chains] = params as [string, string[] | undefined]
        if (address.toLowerCase() !== account.toLowerCase()) return { error: { code: 4100, message: 'unknown account' } }
        const capabilities = options.capabilities ?? { atomic: { status: 'supported' }, paymasterService: { supported: true } }
        return { result: chains === undefined || chains.includes(chainHex) ? { [chainHex]: capabilities } : {} }
      }
      case 'wallet_sendCalls': {
        const request = params[0] as SentCalls
        sent.push(request)
        if (hold) {
          const held = hold
          hold = null
          held.arrived()
          await held.released
        }
        if (reject) {
          reject = false
          return { error: { code: 4001, message: 'User rejected the request.' } }
        }
        if (request.version !== '2.0.0' || request.from?.toLowerCase() !== account.toLowerCase() || request.chainId !== chainHex) {
          return { error: { code: -32602, message: 'invalid wallet_sendCalls request' } }
        }
        if (!(request.capabilities?.paymasterService as { url?: unknown } | undefined)?.url && !options.paysOwnFees) return { error: { code: 5700, message: 'a paymaster service is required' } }
        const id = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`
        if (lie) {
          lie = false
          batches.set(id, { status: 200, receipts: [] })
          return { result: { id } }
        }
        batches.set(id, { status: 100, receipts: [] })
        // a wallet answers with the batch id at once and carries it out after
        execute(request).then(
          (batch) => batches.set(id, batch),
          () => batches.set(id, { status: 400, receipts: [] }),
        )
        return { result: { id } }
      }
      case 'wallet_getCallsStatus': {
        const batch = batches.get(params[0] as string)
        if (!batch) return { error: { code: 5730, message: 'Unknown bundle id' } }
        return { result: { version: '2.0.0', id: params[0], chainId: chainHex, status: batch.status, atomic: true, receipts: batch.receipts } }
      }
      case 'eth_signTypedData_v4':
      case 'personal_sign':
        // SimpleAccount v0.7 has no ERC-1271: this wallet cannot sign for the vault flow
        return { error: { code: 4200, message: 'this smart account does not sign messages' } }
      default:
        if (chainId !== options.chainId) return { error: { code: 4901, message: 'wrong chain' } }
        try {
          return { result: await chain.request({ method: method as never, params: params as never }) }
        } catch (error) {
          return { error: { code: -32603, message: (error as Error).message } }
        }
    }
  })

  await page.addInitScript(
    ({ binding, name, topOnly }) => {
      if (topOnly && window.top !== window) return
      const listeners = new Map<string, Set<(data: unknown) => void>>()
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const answer = await (window as unknown as Record<string, (m: string, p?: unknown[]) => Promise<any>>)[binding]!(method, params)
          if (answer.event) for (const listener of listeners.get(answer.event.name) ?? []) listener(answer.event.data)
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
          return answer.result
        },
        on(event: string, listener: (data: unknown) => void) {
          if (!listeners.has(event)) listeners.set(event, new Set())
          listeners.get(event)!.add(listener)
        },
        removeListener(event: string, listener: (data: unknown) => void) {
          listeners.get(event)?.delete(listener)
        },
      }
      const info = {
        uuid: '9b1f4f0e-3c2a-4d5e-8f60-7a8b9c0d1e2f',
        name,
        rdns: 'dev.svc-checkout.smart-test-wallet',
        icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="6" fill="%23153"/%3E%3C/svg%3E',
      }
      ;(window as unknown as Record<string, unknown>)[`${binding}_emit`] = (event: string, data: unknown) => {
        for (const listener of listeners.get(event) ?? []) listener(data)
      }
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { binding, name: options.name ?? 'Smart Test Wallet', topOnly: options.topOnly ?? false },
  )

  return {
    get account() {
      return account
    },
    requests,
    sent,
    paymasterRequests,
    rejectNext() {
      reject = true
    },
    lieNext() {
      lie = true
    },
    holdNext() {
      return new Promise((arrived) => {
        let release = () => {}
        const released = new Promise<void>((resolve) => (release = resolve))
        hold = { arrived: () => arrived(release), released }
      })
    },
    async switchAccount(ownerKey, prepare) {
      const next = (await deploySimpleAccount(options.rpcUrl, privateKeyToAccount(ownerKey).address, version, entryPoint)).account
      await prepare?.(next)
      owner = privateKeyToAccount(ownerKey)
      account = next
      await page.evaluate(([emitter, data]) => (window as unknown as Record<string, (n: string, d: unknown) => void>)[emitter as string]!('accountsChanged', data), [`${binding}_emit`, [account]] as const)
      return account
    },
    async switchChain(id) {
      chainId = id
      await page.evaluate(([emitter, data]) => (window as unknown as Record<string, (n: string, d: unknown) => void>)[emitter!]!('chainChanged', data), [`${binding}_emit`, numberToHex(id)])
    },
  }
}
