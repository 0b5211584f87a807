import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { bridgedSignUserOperation, type FrameMessage, type HostMessage } from '../../shared/embedProtocol'
import { askAgainMs, bridgedWallets, readTimeoutMs, type BridgedWallet } from './bridgedWallets'
import type { FrameChannel } from './frameChannel'

/** The frame's side of the channel, with a host that answers only when a test says so. */
function host() {
  const sent: FrameMessage[] = []
  let listener: ((message: HostMessage) => void) | null = null
  const channel: FrameChannel = {
    parentOrigin: 'https://shop.example',
    emit() {},
    send: (message) => sent.push(message),
    onMessage(added) {
      listener = added
      return () => (listener = null)
    },
    watchHeight: () => () => {},
  }
  let wallets: BridgedWallet[] = []
  const stop = bridgedWallets(channel, (found) => (wallets = found))
  const answer = (message: HostMessage) => listener?.(message)
  const requests = () => sent.filter((message): message is Extract<FrameMessage, { type: 'wallet:request' }> => message.type === 'wallet:request')
  const lists = () => sent.filter((message) => message.type === 'wallet:list').length
  return { answer, requests, lists, stop, wallet: () => wallets[0]!.provider }
}

/** A host whose bridge loaded and offers one wallet. */
function withWallet() {
  const h = host()
  h.answer({ type: 'wallet:providers', providers: [{ uuid: 'u1', name: 'W', icon: '', rdns: 'x.w' }], hostOrigin: 'https://shop.example' })
  return h
}

/** How a request ended, read without awaiting it. */
function outcome(promise: Promise<unknown>) {
  const seen: { value?: unknown; error?: { code?: unknown } } = {}
  promise.then(
    (value) => (seen.value = value),
    (error: { code?: unknown }) => (seen.error = error),
  )
  return seen
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('bridgedWallets', () => {
  test('default: relays a request and settles it with the host\'s answer', async () => {
    const h = withWallet()
    const chainId = outcome(h.wallet().request({ method: 'eth_chainId' }))
    const [sent] = h.requests()
    expect(sent).toMatchObject({ uuid: 'u1', method: 'eth_chainId', params: [] })
    h.answer({ type: 'wallet:response', rid: sent!.rid, result: '0x7a69' })
    await vi.advanceTimersByTimeAsync(0)
    expect(chainId).toEqual({ value: '0x7a69' })
  })

  test('behavior: a read the host never answers fails after 30 s; a signature waits as long as the payer does', async () => {
    const h = withWallet()
    const read = outcome(h.wallet().request({ method: 'eth_call', params: [{ to: '0x', data: '0x' }, 'latest'] }))
    // the operation signature travels whole: the host verifies it before its wallet asks the payer
    const signature = outcome(h.wallet().request({ method: bridgedSignUserOperation, params: [{}, '0x'] }))
    await vi.advanceTimersByTimeAsync(readTimeoutMs - 1)
    expect(read).toEqual({})
    await vi.advanceTimersByTimeAsync(1)
    expect(read.error?.code).toBe(4900)
    await vi.advanceTimersByTimeAsync(60 * 60_000)
    expect(signature).toEqual({})
  })

  test('behavior: stopping rejects every request still waiting', async () => {
    const h = withWallet()
    const signature = outcome(h.wallet().request({ method: 'eth_signTypedData_v4', params: ['0x', '{}'] }))
    const accounts = outcome(h.wallet().request({ method: 'eth_requestAccounts' }))
    h.stop()
    await vi.advanceTimersByTimeAsync(0)
    expect([signature.error?.code, accounts.error?.code]).toEqual([4900, 4900])
  })

  test('behavior: asks the host for its wallets again until it answers, so a bridge that failed to load is loaded again', async () => {
    const h = host()
    expect(h.lists()).toBe(1)
    await vi.advanceTimersByTimeAsync(2 * askAgainMs)
    expect(h.lists()).toBe(3)
    h.answer({ type: 'wallet:providers', providers: [], hostOrigin: 'https://shop.example' })
    await vi.advanceTimersByTimeAsync(5 * askAgainMs)
    expect(h.lists()).toBe(3)
    h.stop()
  })
})
