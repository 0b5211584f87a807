import type { Hex } from 'viem'
import type { WireInvoice } from '../shared/wire'
import { sameAddress } from '../verify/sameAddress'
import type { Failure } from './failure'
import type { PaymentEvent } from './paymentEvent'
import type { Payer, PaymentState, Receipt } from './paymentState'
import { permitLapsed } from './permitWindow'

/** How often a submitted payment's invoice is read while it is pending. */
export const pendingPollMs = 3_000

type StateNamed<N extends PaymentState['name']> = Extract<PaymentState, { name: N }>
type Submitted = StateNamed<'submitting' | 'reconciling' | 'pending'>

/** The whole payment as a pure function: no clock (times come in events), no I/O. An event a state
 * does not expect leaves it unchanged, so a late or repeated click is harmless. */
export function reduce(state: PaymentState, event: PaymentEvent): PaymentState {
  switch (state.name) {
    case 'idle':
      return event.type === 'start' ? { name: 'loading' } : state

    case 'loading':
      if (event.type === 'invoiceRead') {
        return event.invoice.status === 'Issued' ? { name: 'ready', invoice: event.invoice, note: null } : settled(event.invoice, null)
      }
      if (event.type === 'failed') {
        const { failure } = event
        return failure.kind === 'api' && failure.status === 404 ? { name: 'notFound' } : errorState(failure, event.at, state, 'NETWORK_ERROR')
      }
      return state

    case 'ready':
      return event.type === 'connect' ? { name: 'connecting', invoice: state.invoice } : state

    case 'connecting':
      if (event.type === 'payerResolved') {
        const { onchain } = event
        // before any permit is asked for: a server that misstates the invoice is never paid through
        if (!onchain.ok) return { name: 'unsafe', invoice: state.invoice, problems: onchain.problems }
        return onchain.invoice.status === 'Issued' ? resolved(state.invoice, event.payer) : settled(onchain.invoice, null)
      }
      if (event.type === 'wrongNetwork') {
        const { chainId, wantedChainId } = event
        return { name: 'wrongNetwork', invoice: state.invoice, chainId, wantedChainId, note: null }
      }
      if (event.type === 'failed') {
        return event.failure.kind === 'rejected'
          ? { name: 'ready', invoice: state.invoice, note: 'connectRejected' }
          : errorState(event.failure, event.at, state, 'CONNECT_FAILED')
      }
      return state

    case 'wrongNetwork':
      if (event.type === 'switchNetwork') {
        const { invoice, chainId, wantedChainId } = state
        return { name: 'switchingNetwork', invoice, chainId, wantedChainId }
      }
      // the payer may have switched in the wallet itself
      if (event.type === 'retry' || event.type === 'connect') return { name: 'connecting', invoice: state.invoice }
      return state

    case 'switchingNetwork':
      if (event.type === 'networkSwitched') return { name: 'connecting', invoice: state.invoice }
      if (event.type === 'failed') {
        const note = event.failure.kind === 'rejected' ? 'switchRejected' : 'switchFailed'
        return { name: 'wrongNetwork', invoice: state.invoice, chainId: state.chainId, wantedChainId: state.wantedChainId, note }
      }
      return state

    case 'connected':
      return event.type === 'pay' ? { name: 'requestingPermit', invoice: state.invoice, payer: state.payer } : state

    case 'insufficientBalance':
      // the payer may have topped up the vault
      return event.type === 'retry' ? { name: 'connecting', invoice: state.invoice } : state

    case 'requestingPermit':
      if (event.type === 'permitReceived') {
        if (event.invoice.status !== 'Issued') return settled(event.invoice, null)
        const { verdict } = event
        if (!verdict.ok) return { name: 'unsafe', invoice: state.invoice, problems: verdict.problems }
        const { invoice, payer } = state
        const { typedData } = verdict
        const { value, spender, deadline } = typedData.message
        const authorisation = { amount: value, token: invoice.token, merchant: invoice.merchant, spender, deadline }
        return { name: 'signingPermit', invoice, payer, typedData, authorisation }
      }
      return event.type === 'failed' ? beforeSubmissionFailed(state, event.failure, event.at) : state

    case 'signingPermit':
      if (event.type === 'permitSigned') return { name: 'preparing', invoice: state.invoice, payer: state.payer, permit: event.permit }
      if (event.type === 'failed') return signatureFailed(state, event.failure, event.at, 'permitRejected')
      return state

    case 'preparing':
      if (event.type === 'prepared') {
        if (event.prepared.invoice.status !== 'Issued') return settled(event.prepared.invoice, null)
        return { ...state, name: 'verifying', prepared: event.prepared }
      }
      if (event.type === 'permitExpiring') return permitExpired(state)
      return event.type === 'failed' ? beforeSubmissionFailed(state, event.failure, event.at) : state

    case 'verifying':
      // a verifier that cannot decide has not said yes: never on to signing
      if (event.type === 'failed') {
        return errorState(event.failure, event.at, { name: 'requestingPermit', invoice: state.invoice, payer: state.payer }, 'VERIFICATION_FAILED')
      }
      if (event.type !== 'verified') return state
      if (!event.verdict.ok) return { name: 'unsafe', invoice: state.invoice, problems: event.verdict.problems }
      return {
        name: 'signingOperation',
        invoice: state.invoice,
        payer: state.payer,
        permit: state.permit,
        userOp: event.verdict.userOp,
        userOpHash: event.verdict.userOpHash,
      }

    case 'signingOperation':
      if (event.type === 'operationSigned') return { ...state, name: 'submitting', userOp: { ...state.userOp, signature: event.signature } }
      if (event.type === 'permitExpiring') return permitExpired(state)
      if (event.type === 'failed') return signatureFailed(state, event.failure, event.at, 'operationRejected')
      return state

    case 'submitting':
      if (event.type === 'submitted') {
        const { result } = event
        if (result.status === 'confirmed') return { name: 'paid', invoice: state.invoice, receipt: receipt(state, result.txHash) }
        return { name: 'pending', ...operationOf(state), nextCheckAt: event.at + pendingPollMs }
      }
      if (event.type === 'permitExpiring') return permitExpired(state)
      return event.type === 'failed' ? submissionFailed(state, event.failure, event.at) : state

    case 'reconciling':
      if (event.type === 'invoiceRead') {
        if (event.invoice.status !== 'Issued') return settled(event.invoice, state)
        if (uncertain(state.failure)) return { name: 'pending', ...operationOf(state), nextCheckAt: event.at + pendingPollMs }
        // the server refused the operation outright: it was never sent, so a new one may be prepared
        return errorState(state.failure, event.at, { name: 'requestingPermit', invoice: state.invoice, payer: state.payer }, 'NETWORK_ERROR')
      }
      // still no answer: keep reading rather than give up on a payment that may have gone through
      if (event.type === 'failed') return { name: 'pending', ...operationOf(state), nextCheckAt: event.at + pendingPollMs }
      return state

    case 'pending':
      if (event.type === 'invoiceRead') {
        if (event.invoice.status !== 'Issued') return settled(event.invoice, state)
        if (permitLapsed(state.permit.deadline, event.at)) return permitExpired(state)
        return { ...state, nextCheckAt: event.at + pendingPollMs }
      }
      if (event.type === 'failed') {
        const wait = event.failure.kind === 'api' && event.failure.retryAfter !== null ? event.failure.retryAfter * 1000 : 0
        return { ...state, nextCheckAt: event.at + Math.max(pendingPollMs, wait) }
      }
      // the same signed operation, never a new one: resending it cannot pay twice
      if (event.type === 'retry') return { name: 'submitting', ...operationOf(state) }
      return state

    case 'refreshing':
      if (event.type === 'invoiceRead' && event.invoice.status !== 'Issued') return settled(event.invoice, null)
      if (event.type === 'invoiceRead' || event.type === 'failed') return errorState(state.failure, event.at, state.resume, 'NETWORK_ERROR')
      return state

    case 'permitExpired':
      return event.type === 'renewPermit' ? { name: 'requestingPermit', invoice: state.invoice, payer: state.payer } : state

    case 'error':
      if (event.type !== 'retry' || (state.retryAt !== null && event.at < state.retryAt)) return state
      return state.resume

    case 'notFound':
    case 'paid':
    case 'canceled':
    case 'unsafe':
      return state
  }
}

function resolved(invoice: WireInvoice, payer: Payer): PaymentState {
  const amount = BigInt(invoice.amount)
  if (payer.balance < amount) return { name: 'insufficientBalance', invoice, payer, missing: amount - payer.balance }
  return { name: 'connected', invoice, payer, note: null }
}

/** A Paid or Canceled invoice ends the flow, whoever settled it; a receipt only for our own operation. */
function settled(invoice: WireInvoice, ours: Submitted | null): PaymentState {
  if (invoice.status === 'Canceled') return { name: 'canceled', invoice }
  const byUs = ours !== null && invoice.payer !== null && sameAddress(invoice.payer, ours.payer.vault)
  return { name: 'paid', invoice, receipt: byUs ? receipt(ours, invoice.txHash) : null }
}

function receipt(state: Submitted, txHash: Hex | null): Receipt {
  return { amount: BigInt(state.invoice.amount), invoiceNumber: state.invoice.invoiceNumber, userOpHash: state.userOpHash, txHash }
}

function permitExpired(state: StateNamed<'preparing' | 'signingOperation' | 'submitting' | 'pending'>): PaymentState {
  return { name: 'permitExpired', invoice: state.invoice, payer: state.payer }
}

/** The signed operation and what it was built from: all that carries over between submitting,
 * reconciling and pending. */
function operationOf({ invoice, payer, permit, userOp, userOpHash }: Submitted) {
  return { invoice, payer, permit, userOp, userOpHash }
}

/** Codes after which the permit itself is the problem: start again from a new one. */
function permitRefused(failure: Failure): boolean {
  return failure.kind === 'api' && (failure.code === 'PERMIT_SIGNATURE_INVALID' || failure.code === 'USEROP_PERMIT_MISMATCH')
}

/** No answer, or a server fault: the request may have taken effect (SPEC 7.2, 502/503). */
function uncertain(failure: Failure): boolean {
  return failure.kind !== 'api' || failure.status === 0 || failure.status >= 500
}

function beforeSubmissionFailed(state: StateNamed<'requestingPermit' | 'preparing'>, failure: Failure, at: number): PaymentState {
  if (failure.kind === 'api' && failure.code === 'PERMIT_EXPIRED') return { name: 'permitExpired', invoice: state.invoice, payer: state.payer }
  if (permitRefused(failure)) return errorState(failure, at, { name: 'requestingPermit', invoice: state.invoice, payer: state.payer }, 'NETWORK_ERROR')
  if (uncertain(failure) || (failure.kind === 'api' && failure.status === 429)) return errorState(failure, at, state, 'NETWORK_ERROR')
  return { name: 'refreshing', invoice: state.invoice, failure, resume: state }
}

/** Once an operation has been sent, only a refusal the server states plainly lets the widget move
 * on; anything else is reconciled by reading the invoice, never by preparing another operation. */
function submissionFailed(state: StateNamed<'submitting'>, failure: Failure, at: number): PaymentState {
  if (failure.kind === 'api' && failure.code === 'PERMIT_EXPIRED') return permitExpired(state)
  if (permitRefused(failure)) return errorState(failure, at, { name: 'requestingPermit', invoice: state.invoice, payer: state.payer }, 'NETWORK_ERROR')
  // rate limiting happens before the operation is looked at: sending it again later is safe
  if (failure.kind === 'api' && failure.status === 429) return errorState(failure, at, state, 'NETWORK_ERROR')
  return { name: 'reconciling', ...operationOf(state), failure }
}

/** The payer declining a signature is not an error: back to connected, with a note saying so. */
function signatureFailed(
  state: StateNamed<'signingPermit' | 'signingOperation'>,
  failure: Failure,
  at: number,
  note: 'permitRejected' | 'operationRejected',
): PaymentState {
  if (failure.kind === 'rejected') return { name: 'connected', invoice: state.invoice, payer: state.payer, note }
  return errorState(failure, at, state, 'WALLET_ERROR')
}

function errorState(failure: Failure, at: number, resume: PaymentState, otherwise: string): PaymentState {
  if (failure.kind !== 'api') return { name: 'error', code: otherwise, status: null, retryAt: null, resume }
  const retryAt = failure.retryAfter === null ? null : at + failure.retryAfter * 1000
  return { name: 'error', code: failure.code, status: failure.status, retryAt, resume }
}
