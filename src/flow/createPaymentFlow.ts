import type { Address } from 'viem'
import type { ShownInvoice } from '../verify/confirmInvoice'
import { toFailure } from './failure'
import type { PaymentEvent } from './paymentEvent'
import type { PaymentFlowDependencies } from './paymentFlowDependencies'
import type { PaymentState } from './paymentState'
import { reduce } from './reduce'
import { runEffect } from './runEffect'

export type PaymentFlow = {
  readonly state: PaymentState
  /** Called on every change, with the new state; returns the unsubscribe function. */
  subscribe(listener: (state: PaymentState) => void): () => void
  /** `served`: the invoice the page was rendered with (unconfirmed), so that it is not fetched again. */
  start(served?: ShownInvoice): void
  connect(): void
  switchNetwork(): void
  pay(): void
  /** Pay what the vault lacks from the connected account, inside the same operation. */
  payFromWallet(): void
  /** Send what the vault lacks from the connected account as the wallet's own transaction, then pay. */
  sendToVault(): void
  /** A smart account takes back the funds its vault holds, which it can never pay from. */
  moveBack(): void
  renewPermit(): void
  retry(): void
  /** The wallet's account or chain as it reports them now; null once disconnected. */
  walletChanged(connection: { owner: Address; chainId: number } | null): void
  /** Stops listening and drops every answer still on its way. */
  dispose(): void
}

/** The payment's driver: `reduce` decides, this runs the work each new state stands for and feeds
 * its outcome back. Actions the current state does not expect are ignored. */
export function createPaymentFlow(dependencies: PaymentFlowDependencies): PaymentFlow {
  let state: PaymentState = { name: 'idle' }
  let disposed = false
  const listeners = new Set<(state: PaymentState) => void>()

  function dispatch(event: PaymentEvent) {
    if (disposed) return
    const next = reduce(state, event)
    if (next === state) return
    state = next
    // the work starts before listeners run, so a throwing listener cannot stall the payment
    void run(next)
    for (const listener of listeners) listener(next)
  }

  async function run(entered: PaymentState) {
    let outcome: PaymentEvent | null
    try {
      outcome = await runEffect(entered, dependencies)
    } catch (error) {
      outcome = { type: 'failed', failure: toFailure(error), at: dependencies.clock.now() }
    }
    // an answer for a state the flow has already left (disposed, or moved on) must not steer it
    if (outcome && state === entered) dispatch(outcome)
  }

  return {
    get state() {
      return state
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    start: (served) => dispatch(served ? { type: 'start', served } : { type: 'start' }),
    connect: () => dispatch({ type: 'connect' }),
    switchNetwork: () => dispatch({ type: 'switchNetwork' }),
    pay: () => dispatch({ type: 'pay' }),
    payFromWallet: () => dispatch({ type: 'payFromWallet' }),
    sendToVault: () => dispatch({ type: 'sendToVault' }),
    moveBack: () => dispatch({ type: 'moveBack' }),
    renewPermit: () => dispatch({ type: 'renewPermit' }),
    retry: () => dispatch({ type: 'retry', at: dependencies.clock.now() }),
    walletChanged: (connection) => dispatch({ type: 'walletChanged', connection, wantedChainId: dependencies.deployment.chainId }),
    dispose() {
      disposed = true
      listeners.clear()
    },
  }
}
