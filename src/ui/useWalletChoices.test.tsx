// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/preact'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { devnetChainId } from '../config/devnet'
import type { FrameChannel } from '../frame/frameChannel'
import type { WalletSession } from '../wallet/createWalletSession'
import { knownChoices } from '../wallet/knownChoices'
import type { WalletChoice } from '../wallet/walletChoice'
import { useWalletChoices } from './useWalletChoices'

afterEach(() => {
  cleanup()
  delete (globalThis as { ethereum?: unknown }).ethereum
})

const known = knownChoices({ chainId: devnetChainId, walletConnectProjectId: 'a-project' }, '', 'en')
const extension: WalletChoice = { id: 'io.metamask', kind: 'injected', name: 'MetaMask', icon: '' }

/** A session whose wallet stack reports only when the test says it has loaded. */
function sessionLoadingLater() {
  let report: ((choices: WalletChoice[]) => void) | undefined
  const session = { knownChoices: known, watchChoices: (onChange: (choices: WalletChoice[]) => void) => ((report = onChange), () => {}) } as unknown as WalletSession
  return { session, loaded: (choices: WalletChoice[]) => act(() => report!(choices)) }
}

describe('useWalletChoices', () => {
  test('behavior: a browser with no wallet is offered WalletConnect and the devnet wallet from the first render, and the stack that loads later adds its finds after them, moving none', async () => {
    vi.useFakeTimers()
    const { session, loaded } = sessionLoadingLater()
    const { result } = renderHook(() => useWalletChoices(session))
    expect(result.current.map((choice) => choice.id)).toEqual(['walletconnect', 'devnet'])
    act(() => {
      vi.runAllTimers()
    })
    vi.useRealTimers()
    loaded([extension, ...knownChoices({ chainId: devnetChainId, walletConnectProjectId: 'a-project' }, '', 'en')])
    expect(result.current.map((choice) => choice.id)).toEqual(['walletconnect', 'devnet', 'io.metamask'])
  })

  test('behavior: where a wallet is injected, nothing is offered before the stack has looked, which lists the injected wallet first', async () => {
    ;(globalThis as { ethereum?: unknown }).ethereum = {}
    vi.useFakeTimers()
    const { session, loaded } = sessionLoadingLater()
    const { result } = renderHook(() => useWalletChoices(session))
    expect(result.current).toEqual([])
    act(() => {
      vi.runAllTimers()
    })
    vi.useRealTimers()
    loaded([extension, ...known])
    expect(result.current.map((choice) => choice.id)).toEqual(['io.metamask', 'walletconnect', 'devnet'])
  })

  test("behavior: in a host page's frame, nothing is offered before the host's wallets and the stack's", () => {
    const channel = { parentOrigin: 'https://shop.example', emit: () => {}, send: () => {}, onMessage: () => () => {}, watchHeight: () => () => {} } satisfies FrameChannel
    const { result } = renderHook(() => useWalletChoices(sessionLoadingLater().session, channel))
    expect(result.current).toEqual([])
  })

  test('behavior: a deployment with no WalletConnect project off the devnet names no way to pay of its own', () => {
    expect(knownChoices({ chainId: 8453 }, '', 'en')).toEqual([])
  })
})
