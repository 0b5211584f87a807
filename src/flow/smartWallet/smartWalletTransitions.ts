import type { ShownInvoice } from '../../verify/confirmInvoice'
import { sameAddress } from '../../verify/sameAddress'
import type { Failure } from '../failure'
import type { PaymentEvent } from '../paymentEvent'
import type { PaymentState } from '../paymentState'
import type { SmartPayer, SmartWalletNote } from './smartWalletState'

type StateNamed<N extends PaymentState['name']> = Extract<PaymentState, { name: N }>
type EventNamed<T extends PaymentEvent['type']> = Extract<PaymentEvent, { type: T }>

/** How often the chain (and the wallet) is read while a batch is out. */
export const callsPollMs = 2_000
/** How long the wallet's final word (confirmed or failed) must stand while the chain still shows the
 * invoice open before the page says nothing was paid: the pinned RPC may be a block behind the
 * wallet's node. */
export const finalWordGraceMs = 6_000
/** After this long without a final word from the wallet, the page says what the chain shows. */
export const followCallsMs = 90_000

function smartWallet(invoice: ShownInvoice, payer: SmartPayer, note: SmartWalletNote | null): PaymentState {
  return { name: 'smartWallet', invoice, payer, note }
}

/** Paid or canceled, as the chain has it; a receipt only when the chain names this account the payer. */
function settled(invoice: ShownInvoice, payer: SmartPayer): PaymentState {
  if (invoice.status === 'Canceled') return { name: 'canceled', invoice }
  const byUs = invoice.payer !== null && sameAddress(invoice.payer, payer.owner)
  return { name: 'paid', invoice, receipt: byUs ? { amount: BigInt(invoice.amount), invoiceNumber: invoice.invoiceNumber, userOpHash: null, txHash: invoice.txHash } : null }
}

function walletFailed(failure: Failure, resume: PaymentState): PaymentState {
  return { name: 'error', code: failure.kind === 'chainUnreadable' ? 'CHAIN_UNREADABLE' : 'WALLET_ERROR', status: null, retryAt: null, resume }
}

/** `connecting` → the one-prompt payment, once the invoice held to the chain (as in the vault flow). */
export function smartPayerResolved(state: StateNamed<'connecting'>, { payer, check }: EventNamed<'smartPayerResolved'>): PaymentState {
  if (check.kind === 'unsafe') return { name: 'unsafe', invoice: check.invoice, problems: check.problems, handedOver: null }
  // the calls are built from the chain's figures only: without them there is nothing to build from
  if (check.kind !== 'confirmed') return { name: 'ready', invoice: state.invoice, note: null, rechecks: 0 }
  if (check.invoice.status !== 'Issued') return settled(check.invoice, payer)
  return smartWallet(check.invoice, payer, null)
}

/** A batch is out: the chain says what became of it; the wallet's word only decides how long to wait. */
function followCalls(state: StateNamed<'followingCalls'>, { wallet, check, at }: EventNamed<'callsRead'>): PaymentState {
  const { payer } = state
  if (check.kind === 'unsafe') return { name: 'unsafe', invoice: check.invoice, problems: check.problems, handedOver: null }
  if (check.kind === 'confirmed' && check.invoice.status !== 'Issued') return settled(check.invoice, payer)
  const again = { ...state, wallet, nextCheckAt: at + callsPollMs }
  // no chain, no verdict: the wallet's word is never taken instead
  if (check.kind === 'unreadable') return again
  const { invoice } = check
  const final = wallet === 'confirmed' || wallet === 'failed'
  const finalSince = final ? (state.finalSince ?? at) : null
  if (finalSince !== null && at - finalSince >= finalWordGraceMs) return smartWallet(invoice, payer, wallet === 'failed' ? 'callsFailed' : 'callsNotOnChain')
  if (at - state.sentAt >= followCallsMs) return smartWallet(invoice, payer, 'callsUnknown')
  return { ...again, invoice, finalSince }
}

/** What each state of the one-prompt payment does with the events it expects (reduce.ts's table). */
export const smartWalletTransitions = {
  smartWallet: {
    // only an account that can pay here and holds the amount is offered Pay
    pay: (state: StateNamed<'smartWallet'>): PaymentState =>
      state.payer.cannotPay || state.payer.balance < BigInt(state.invoice.amount) ? state : { name: 'sendingCalls', invoice: state.invoice, payer: state.payer },
    // "check again": the payer may have topped up the account
    retry: ({ invoice }: StateNamed<'smartWallet'>): PaymentState => ({ name: 'connecting', invoice }),
    moveBack: (state: StateNamed<'smartWallet'>): PaymentState => {
      const { invoice, payer } = state
      return payer.stranded && payer.movesBack ? { name: 'movingBack', invoice, payer, stranded: payer.stranded } : state
    },
  },
  movingBack: {
    callsSent: ({ invoice, payer, stranded }: StateNamed<'movingBack'>, { at }: EventNamed<'callsSent'>): PaymentState => ({
      name: 'followingMoveBack',
      invoice,
      payer,
      stranded,
      sentAt: at,
      nextCheckAt: at,
    }),
    // any other failure may have sent it: connecting reads the account and the vault again
    failed: ({ invoice, payer }: StateNamed<'movingBack'>, { failure }: EventNamed<'failed'>): PaymentState =>
      failure.kind === 'rejected' ? smartWallet(invoice, payer, 'transferRejected') : walletFailed(failure, { name: 'connecting', invoice }),
  },
  followingMoveBack: {
    // moved once the chain shows the vault holding less: connecting reads both balances again
    vaultRead: (state: StateNamed<'followingMoveBack'>, { balance, at }: EventNamed<'vaultRead'>): PaymentState => {
      if (balance !== null && balance < state.stranded.balance) return { name: 'connecting', invoice: state.invoice }
      if (at - state.sentAt >= followCallsMs) return smartWallet(state.invoice, state.payer, 'moveNotOnChain')
      return { ...state, nextCheckAt: at + callsPollMs }
    },
    failed: (state: StateNamed<'followingMoveBack'>, { at }: EventNamed<'failed'>): PaymentState => ({ ...state, nextCheckAt: at + callsPollMs }),
  },
  sendingCalls: {
    callsSent: ({ invoice, payer }: StateNamed<'sendingCalls'>, { callsId, at }: EventNamed<'callsSent'>): PaymentState => ({
      name: 'followingCalls',
      invoice,
      payer,
      callsId,
      sentAt: at,
      nextCheckAt: at,
      wallet: 'pending',
      finalSince: null,
    }),
    // declining sends nothing; any other failure may have sent the batch, so the chain is read first
    failed: ({ invoice, payer }: StateNamed<'sendingCalls'>, { failure }: EventNamed<'failed'>): PaymentState =>
      failure.kind === 'rejected' ? smartWallet(invoice, payer, 'callsRejected') : { name: 'refreshing', invoice, next: walletFailed(failure, smartWallet(invoice, payer, null)) },
  },
  followingCalls: {
    callsRead: followCalls,
    failed: (state: StateNamed<'followingCalls'>, { at }: EventNamed<'failed'>): PaymentState => ({ ...state, nextCheckAt: at + callsPollMs }),
  },
}
