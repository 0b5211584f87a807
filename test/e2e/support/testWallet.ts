import type { Page } from 'playwright-core'
import { createPublicClient, createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type InjectTestWalletParameters = {
  privateKey: Hex
  rpcUrl: string
  chainId: number
  /** The chain the wallet starts on; switching is honoured like a real wallet would. */
  startChainId?: number
  name?: string
  /** Announce only in the top window, as the many extensions that do not inject into iframes. */
  topOnly?: boolean
}

/** A signing request, by its method, or for typed data by what it signs: the token's `Permit` or the
 * vault's `Payment`. */
type SigningMethod = 'eth_signTypedData_v4' | 'personal_sign' | 'eth_sendTransaction' | 'Permit' | 'Payment'

/** A typed message the wallet was asked to sign, as a wallet would show it. */
export type TypedRequest = { primaryType: string; domain: Record<string, unknown>; message: Record<string, string> }

export type TestWallet = {
  requests: string[]
  /** Every eth_signTypedData_v4 request, in order. */
  typed: TypedRequest[]
  /** Refuses the next request of this method with EIP-1193 code 4001, as a payer pressing "Reject";
   * `nested`: as MetaMask mobile does, a -32603 with the 4001 under data.originalError. */
  rejectNext(method: SigningMethod, options?: { nested?: boolean }): void
  /** Leaves the next request of this method unanswered, as a payer who has not looked at the wallet
   * yet; resolves once it has arrived, with the function that lets the wallet answer it. */
  holdNext(method: SigningMethod): Promise<() => void>
  /** The payer picks another account in the wallet (unlocking it): later requests sign with this key,
   * and the page hears accountsChanged, unless `unannounced` (a wallet that switches without a word). */
  switchAccount(privateKey: Hex, options?: { unannounced?: boolean }): Promise<void>
  /** The payer locks the wallet: it shares no account until one is picked again, and the page hears
   * accountsChanged with none, as wallets say a disconnection. */
  lock(): Promise<void>
  /** The payer moves the wallet to another chain: the page hears chainChanged. */
  switchChain(chainId: number): Promise<void>
}

/**
 * An EIP-1193 wallet announced by EIP-6963 inside the page, backed by a real key held in the test
 * process: signing happens here with viem, chain reads go to anvil. Nothing about it is mocked: the
 * signatures are real and the chain checks them.
 */
export async function injectTestWallet(page: Page, options: InjectTestWalletParameters): Promise<TestWallet> {
  let account = privateKeyToAccount(options.privateKey)
  let locked = false
  const rpc = createPublicClient({ transport: http(options.rpcUrl) })
  let chainId = options.startChainId ?? options.chainId
  const requests: string[] = []
  const typed: TypedRequest[] = []
  const rejections = new Map<string, { nested: boolean }>()
  const holds = new Map<string, { arrived: () => void; released: Promise<void> }>()
  const binding = `__svcTestWallet_${Math.random().toString(36).slice(2)}`

  await page.exposeBinding(binding, async (_source, method: string, params: unknown[] = []) => {
    requests.push(method)
    let kind = method
    if (method === 'eth_signTypedData_v4') {
      const { primaryType, domain, message } = JSON.parse((params as [string, string])[1]) as TypedRequest
      typed.push({ primaryType, domain, message })
      kind = rejections.has(primaryType) || holds.has(primaryType) ? primaryType : method
    }
    const rejection = rejections.get(kind)
    if (rejection) {
      rejections.delete(kind)
      return rejection.nested
        ? { error: { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4001, message: 'User rejected the request.' } } } }
        : { error: { code: 4001, message: 'User rejected the request.' } }
    }
    const hold = holds.get(kind)
    if (hold) {
      holds.delete(kind)
      hold.arrived()
      await hold.released
    }
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: locked ? [] : [account.address] }
      case 'eth_chainId':
        return { result: `0x${chainId.toString(16)}` }
      case 'wallet_switchEthereumChain': {
        const wanted = Number.parseInt((params[0] as { chainId: string }).chainId, 16)
        if (wanted !== options.chainId) return { error: { code: 4902, message: 'Unrecognized chain ID.' } }
        chainId = wanted
        return { result: null, event: { name: 'chainChanged', data: `0x${chainId.toString(16)}` } }
      }
      case 'wallet_addEthereumChain':
        return { result: null }
      case 'eth_signTypedData_v4': {
        const [address, json] = params as [string, string]
        if (address.toLowerCase() !== account.address.toLowerCase()) return { error: { code: 4100, message: 'unknown account' } }
        const typed = JSON.parse(json)
        delete typed.types.EIP712Domain
        return { result: await account.signTypedData(typed) }
      }
      case 'personal_sign': {
        const [message] = params as [Hex]
        return { result: await account.signMessage({ message: { raw: message } }) }
      }
      case 'eth_sendTransaction': {
        // signed here with the key, as a wallet does, and sent raw: the node holds no account
        const [{ to, data }] = params as [{ to: Hex; data: Hex }]
        const sender = createWalletClient({ account, transport: http(options.rpcUrl) })
        return { result: await sender.sendTransaction({ chain: null, to, data }) }
      }
      default:
        if (chainId !== options.chainId) return { error: { code: 4901, message: 'wrong chain' } }
        try {
          return { result: await rpc.request({ method: method as never, params: params as never }) }
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
        isTestWallet: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          const answer = await (window as unknown as Record<string, (m: string, p?: unknown[]) => Promise<any>>)[binding]!(method, params)
          if (answer.event) for (const listener of listeners.get(answer.event.name) ?? []) listener(answer.event.data)
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code, data: answer.error.data })
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
        uuid: '5d0e1c1e-7f1b-4c55-9a8e-0b7f1c2d3e4f',
        name,
        rdns: 'dev.svc-checkout.test-wallet',
        icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="6" fill="%23345"/%3E%3C/svg%3E',
      }
      // the wallet's own UI: the test process tells the page of a change the payer made in it
      ;(window as unknown as Record<string, unknown>)[`${binding}_emit`] = (name: string, data: unknown) => {
        for (const listener of listeners.get(name) ?? []) listener(data)
      }
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
      window.addEventListener('eip6963:requestProvider', announce)
      announce()
    },
    { binding, name: options.name ?? 'Test Wallet', topOnly: options.topOnly ?? false },
  )

  const emit = (name: string, data: unknown) =>
    page.evaluate(([emitter, event, payload]) => (window as unknown as Record<string, (n: unknown, d: unknown) => void>)[emitter as string]!(event, payload), [`${binding}_emit`, name, data])
  return {
    requests,
    typed,
    rejectNext(method, { nested = false } = {}) {
      rejections.set(method, { nested })
    },
    holdNext(method) {
      return new Promise((arrived) => {
        let release = () => {}
        const released = new Promise<void>((resolve) => (release = resolve))
        holds.set(method, { arrived: () => arrived(release), released })
      })
    },
    async switchAccount(privateKey, { unannounced = false } = {}) {
      account = privateKeyToAccount(privateKey)
      locked = false
      if (!unannounced) await emit('accountsChanged', [account.address])
    },
    async lock() {
      locked = true
      await emit('accountsChanged', [])
    },
    async switchChain(id) {
      chainId = id
      await emit('chainChanged', `0x${id.toString(16)}`)
    },
  }
}
