import { bridgedSignUserOperation, type RpcError, type WalletInfo } from '../../shared/embedProtocol'
import type { Eip1193Provider } from '../../shared/eip1193'
import type { FrameChannel } from './frameChannel'

/** A host page's wallet as the frame holds it: it relays the wallet's events too. */
export type BridgedProvider = Required<Eip1193Provider>

export type BridgedWallet = { info: WalletInfo; hostOrigin: string; provider: BridgedProvider }

/** Methods that wait for the payer in the host's wallet: they take as long as the payer does. */
const prompts = ['eth_requestAccounts', 'wallet_switchEthereumChain', 'eth_signTypedData_v4', bridgedSignUserOperation]

/** Any other request is a read: one the host has not answered by then never will be (a host page
 * that dropped it, or a wallet that hangs), and the payment must not wait on it forever. */
export const readTimeoutMs = 30_000

/** The host answers every `wallet:list`, if only with no wallets; while it is silent its bridge has not
 * loaded (offline, say), and the loader fetches it again when asked again. */
export const askAgainMs = 10_000

type Pending = { resolve(value: unknown): void; reject(error: unknown): void; timer: ReturnType<typeof setTimeout> | undefined }

function providerError({ code, message }: RpcError): Error {
  return Object.assign(new Error(message), { code })
}

/** EIP-1193 4900: the host is out of reach. */
const disconnected = (message: string) => providerError({ code: 4900, message })

/**
 * The host page's wallets, offered inside the iframe as EIP-1193 providers whose requests travel
 * to the host over the channel. `onWallets` is called whenever the host's list changes.
 */
export function bridgedWallets(channel: FrameChannel, onWallets: (wallets: BridgedWallet[]) => void): () => void {
  let nextRid = 1
  const pending = new Map<number, Pending>()
  const take = (rid: number) => {
    const waiting = pending.get(rid)
    pending.delete(rid)
    clearTimeout(waiting?.timer)
    return waiting
  }
  const listeners = new Map<string, Set<(data: unknown) => void>>()
  const providers = new Map<string, BridgedProvider>()

  const providerFor = (uuid: string): BridgedProvider => {
    let provider = providers.get(uuid)
    if (!provider) {
      provider = {
        request({ method, params }) {
          const rid = nextRid++
          return new Promise((resolve, reject) => {
            const timeout = () => take(rid)?.reject(disconnected(`the host page's wallet did not answer ${method}`))
            pending.set(rid, { resolve, reject, timer: prompts.includes(method) ? undefined : setTimeout(timeout, readTimeoutMs) })
            channel.send({ type: 'wallet:request', rid, uuid, method, params: Array.isArray(params) ? params : params ? [params] : [] })
          })
        },
        on(event, listener) {
          const key = `${uuid}:${event}`
          listeners.set(key, (listeners.get(key) ?? new Set()).add(listener))
        },
        removeListener(event, listener) {
          listeners.get(`${uuid}:${event}`)?.delete(listener)
        },
      }
      providers.set(uuid, provider)
    }
    return provider
  }

  const ask = () => channel.send({ type: 'wallet:list' })
  const asking = setInterval(ask, askAgainMs)
  const stop = channel.onMessage((message) => {
    if (message.type === 'wallet:providers') {
      clearInterval(asking)
      onWallets(message.providers.map((info) => ({ info, hostOrigin: message.hostOrigin, provider: providerFor(info.uuid) })))
    } else if (message.type === 'wallet:response') {
      const waiting = take(message.rid)
      if (!waiting) return
      if (message.error) waiting.reject(providerError(message.error))
      else waiting.resolve(message.result)
    } else if (message.type === 'wallet:event') {
      for (const listener of listeners.get(`${message.uuid}:${message.event}`) ?? []) listener(message.data)
    }
  })
  ask()
  return () => {
    stop()
    clearInterval(asking)
    // nothing will answer them now: a payment waiting on one moves on
    for (const rid of [...pending.keys()]) take(rid)!.reject(disconnected('the checkout stopped listening to the host page'))
  }
}
