import type { ShownInvoice } from '../verify/confirmInvoice'
import { sameAddress } from '../verify/sameAddress'
import type { Failure } from './failure'
import type { CheckInvoiceReturnType } from './checkInvoice'
import type { PaymentEvent, VaultOnChain } from './paymentEvent'
import type { HandedOverPermit, Payer, PaymentState, Receipt, SubmissionAnswer } from './paymentState'
import type { Funding } from '../../shared/fundedPayCall'
import type { PermitSignature } from '../../shared/payCall'
import type { PermitTypedData } from '../verify/verifyPermitToSign'
import { earliestDeadline } from '../../shared/permit'
import { permitExpiring } from './permitExpiring'
import { smartPayerResolved, smartWalletTransitions } from './smartWallet/smartWalletTransitions'

/** How often the chain is read while a signed operation is out. */
export const pendingPollMs = 3_000

type StateNamed<N extends PaymentState['name']> = Extract<PaymentState, { name: N }>
type EventNamed<T extends PaymentEvent['type']> = Extract<PaymentEvent, { type: T }>
type Submitted = StateNamed<'submitting' | 'pending'>

/** What a state does with each event it expects; an event it has no entry for leaves it unchanged. */
type Transitions<N extends PaymentState['name']> = { [T in PaymentEvent['type']]?: (state: StateNamed<N>, event: EventNamed<T>) => PaymentState }

/** The first chain read of the invoice (whether the page fetched it or was rendered with it). */
function firstRead<N extends 'loading' | 'checking'>(): Transitions<N> {
  return {
    chainRead: (_, event) => checked(event.check, (invoice) => ready(invoice, null)),
    // the service's 404 is its word: "not found" is said only once the chain has no such invoice either
    failed: (state, { failure, at }) => (failure.kind === 'api' && failure.status === 404 ? { name: 'loading', notFoundByService: true } : errorState(failure, at, state, 'NETWORK_ERROR')),
  }
}

/** The chain's answer for an invoice the service said it does not know: none, and it is not found; an
 * open one is shown from the chain, with the service's failure to find it as the error; a settled one
 * is what the chain says; no answer says nothing, and the page loads again on retry. */
function notFoundChecked(_: StateNamed<'loading'>, { chain, at }: EventNamed<'notFoundChecked'>): PaymentState {
  if (chain.kind === 'unreadable') return errorState({ kind: 'chainUnreadable' }, at, { name: 'loading' }, 'CHAIN_UNREADABLE')
  if (chain.kind === 'absent') return { name: 'notFound' }
  if (chain.invoice.status !== 'Issued') return settled(chain.invoice, null)
  return { name: 'error', code: 'NOT_FOUND', status: 404, retryAt: null, resume: ready(chain.invoice, null) }
}

/** A new state needs one entry here, and only here. */
const transitions: { [N in PaymentState['name']]: Transitions<N> } = {
  idle: {
    start: (_, event) => (event.served ? { name: 'checking', invoice: event.served } : { name: 'loading' }),
  },
  loading: { ...firstRead<'loading'>(), notFoundChecked },
  checking: firstRead(),
  ready: {
    connect: (state) => ({ name: 'connecting', invoice: state.invoice }),
    chainRead: (state, event) => {
      if (state.invoice.confirmed) return state
      // still no chain: keep the service's figures, marked unconfirmed, and read again later
      if (event.check.kind === 'unreadable') return { ...state, rechecks: state.rechecks + 1 }
      return checked(event.check, (invoice) => ({ ...state, invoice }))
    },
  },
  connecting: {
    // before any permit is asked for: a service that misstates the invoice is never paid through
    payerResolved: (_, event) => checked(event.check, (invoice) => resolved(invoice, event.payer, event.accountBalance)),
    smartPayerResolved,
    wrongNetwork: (state, { chainId, wantedChainId }) => ({ name: 'wrongNetwork', invoice: state.invoice, chainId, wantedChainId, note: null }),
    failed: (state, { failure, at }) => (failure.kind === 'rejected' ? ready(state.invoice, 'connectRejected') : errorState(failure, at, state, 'CONNECT_FAILED')),
  },
  wrongNetwork: {
    switchNetwork: ({ invoice, chainId, wantedChainId }) => ({ name: 'switchingNetwork', invoice, chainId, wantedChainId }),
    // the payer may have switched in the wallet itself
    retry: (state) => ({ name: 'connecting', invoice: state.invoice }),
    connect: (state) => ({ name: 'connecting', invoice: state.invoice }),
  },
  switchingNetwork: {
    networkSwitched: (state) => ({ name: 'connecting', invoice: state.invoice }),
    failed: ({ invoice, chainId, wantedChainId }, { failure }) => ({
      name: 'wrongNetwork',
      invoice,
      chainId,
      wantedChainId,
      note: failure.kind === 'rejected' ? 'switchRejected' : 'switchFailed',
    }),
  },
  connected: {
    pay: ({ invoice, payer }) => ({ name: 'requestingPermit', invoice, payer }),
  },
  insufficientBalance: {
    // the payer may have topped up the vault
    retry: (state) => ({ name: 'connecting', invoice: state.invoice }),
    payFromWallet: (state) => (state.fromWallet ? { name: 'requestingPermit', invoice: state.invoice, payer: state.payer, fromWallet: true } : state),
    sendToVault: (state) => (state.fromWallet && state.payer.sendsTransactions !== false ? { name: 'sendingToVault', invoice: state.invoice, payer: state.payer, missing: state.missing } : state),
  },
  sendingToVault: {
    // the vault is read again, as at connect: the payment then goes on as from any funded vault
    vaultFunded: (state) => ({ name: 'connecting', invoice: state.invoice }),
    failed: (state, { failure, at }) => {
      const offer = { name: 'insufficientBalance' as const, invoice: state.invoice, payer: state.payer, missing: state.missing, fromWallet: true }
      return failure.kind === 'rejected' ? { ...offer, note: 'transferRejected' } : errorState(failure, at, offer, 'WALLET_ERROR')
    },
  },
  requestingPermit: {
    // what the service says of the invoice's status here is not read: only the chain settles it
    permitReceived: ({ invoice, payer, fromWallet }, { verdict, funding }) => {
      // paying from the wallet needs both permits checked, and neither is signed unless both pass
      const problems = [...(verdict.ok ? [] : verdict.problems), ...(funding && !funding.ok ? funding.problems : [])]
      if (fromWallet && !funding) problems.push({ code: 'FUNDING_AMOUNT_MISMATCH', message: 'The payment service offered no authorisation to fund your vault from your wallet.' })
      if (!verdict.ok || problems.length > 0) return { name: 'unsafe', invoice, problems, handedOver: null }
      const permit = toSign(invoice, verdict.typedData)
      if (!funding?.ok) return { name: 'signingPermit', invoice, payer, ...permit }
      return { name: 'signingFunding', invoice, payer, ...toSign(invoice, funding.typedData), next: permit }
    },
    vaultFunded: (state) => ({ name: 'connecting', invoice: state.invoice }),
    failed: (state, { failure, at }) => beforeSubmissionFailed(state, failure, at),
  },
  signingFunding: {
    fundingSigned: ({ invoice, payer, next }, { funding }) => ({ name: 'signingPermit', invoice, payer, ...next, funding }),
    failed: (state, { failure, at }) => signatureFailed(state, failure, at, 'permitRejected'),
  },
  signingPermit: {
    permitSigned: ({ invoice, payer, funding }, { permit }) => ({ name: 'preparing', invoice, payer, permit, ...(funding ? { funding } : {}) }),
    failed: (state, { failure, at }) => signatureFailed(state, failure, at, 'permitRejected'),
  },
  preparing: {
    prepared: (state, { prepared }) => ({ ...state, name: 'verifying', prepared }),
    permitExpiring: (state) => lapsed(state),
    failed: (state, { failure, at }) => beforeSubmissionFailed(state, failure, at),
  },
  verifying: {
    // a verifier that cannot decide has not said yes: never on to signing
    failed: ({ invoice, payer }, { failure, at }) => errorState(failure, at, requestingPermit(invoice, payer), 'VERIFICATION_FAILED'),
    verified: ({ invoice, payer, permit, funding }, { verdict, simulated }) => {
      if (!verdict.ok) {
        // the permit went to the service with /prepare: the payer is told what it allows, and until when.
        // First the chain: an invoice canceled or paid meanwhile, or a permit its clock has lapsed, is
        // what the payer is told, not a service that answered wrongly
        const refused: PaymentState = { name: 'unsafe', invoice, problems: verdict.problems, handedOver: handedOverOf(invoice, permit, funding) }
        return { name: 'refreshing', invoice, next: refused, lapse: { deadline: earliestDeadline(permit, funding?.permit), payer } }
      }
      const { userOp, userOpHash, window, payment } = verdict
      return { name: 'signingOperation', invoice, payer, permit, ...(funding ? { funding } : {}), userOp, userOpHash, window, payment, ...(simulated ? { simulated } : {}) }
    },
  },
  signingOperation: {
    operationSigned: (state, { signature }) => ({ ...state, name: 'submitting', resend: false, userOp: { ...state.userOp, signature } }),
    permitExpiring: (state) => lapsed(state),
    sponsorshipExpiring: (state) => prepareAgain(state),
    failed: (state, { failure, at }) => signatureFailed(state, failure, at, 'operationRejected'),
  },
  submitting: {
    // whatever the service answers, the chain is read at once: a 200 is not a payment
    submitted: (state, { at }) => ({ name: 'pending', ...operationOf(state), submission: { kind: 'accepted' }, nextCheckAt: at }),
    // only before the first send: a signed operation that never left the page cannot pay
    permitExpiring: (state) => lapsed(state),
    sponsorshipExpiring: (state) => prepareAgain(state),
    failed: (state, { failure, at }) => submissionFailed(state, failure, at),
  },
  pending: {
    chainRead: (state, { check, vault, at }) => followed(state, check, vault, at),
    // the same signed operation, never a new one: resending it cannot pay twice
    retry: (state) => (state.submission.kind === 'refused' ? state : { name: 'submitting', ...operationOf(state), resend: true }),
    // a refused operation may still be held and sent; a new one shares its nonce, so at most one runs
    renewPermit: (state) => (state.submission.kind === 'refused' ? requestingPermit(state.invoice, state.payer) : state),
  },
  refreshing: {
    chainRead: (state, { check, vault, at }) => {
      const { next, lapse } = state
      // a refusal stands whatever else the chain says, unless it shows the invoice settled or the permit lapsed
      if (next.name === 'unsafe' && check.kind !== 'confirmed') return next
      if (check.kind === 'unreadable') return errorState({ kind: 'chainUnreadable' }, at, state, 'CHAIN_UNREADABLE')
      return checked(check, (invoice) =>
        lapse && vault && permitExpiring(lapse.deadline, vault.blockTime * 1000) ? { name: 'permitExpired', invoice, payer: lapse.payer, reason: 'expired' } : next,
      )
    },
  },
  permitExpired: {
    renewPermit: ({ invoice, payer }) => requestingPermit(invoice, payer),
  },
  error: {
    retry: (state, { at }) => (state.retryAt !== null && at < state.retryAt ? state : state.resume),
  },
  notFound: {},
  paid: {},
  canceled: {},
  unsafe: {},
  ...smartWalletTransitions,
}

/** The whole payment as a pure function: no clock (times come in events), no I/O. An event a state
 * does not expect leaves it unchanged, so a late or repeated click is harmless. Paid, canceled and
 * "nothing was paid" are only ever entered on a chain read. */
export function reduce(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === 'walletChanged') return walletChanged(state, event)
  // the table pairs each state with handlers for its own type, which TypeScript cannot follow through a lookup
  const transition = (transitions[state.name] as Transitions<PaymentState['name']>)[event.type] as ((state: PaymentState, event: PaymentEvent) => PaymentState) | undefined
  return transition ? transition(state, event) : state
}

/** States that hold a connected payer and have handed nothing over that could pay. */
const beforeHandover = new Set<PaymentState['name']>([
  'connected',
  'insufficientBalance',
  'sendingToVault',
  'requestingPermit',
  'signingFunding',
  'signingPermit',
  'preparing',
  'verifying',
  'signingOperation',
  'permitExpired',
  // a smart wallet's payment, until the wallet has taken the batch, and taking a stranded vault's funds back
  'smartWallet',
  'sendingCalls',
  'movingBack',
  'followingMoveBack',
])

/**
 * The payer changed the wallet's account or chain. Before anything is handed over, another account
 * starts again for that account (a permit or operation signed for the old one is never reused) and
 * another chain is the wrong network. Once the signed operation is out, it is followed on-chain
 * whatever the wallet does.
 */
function walletChanged(state: PaymentState, { connection, wantedChainId }: Extract<PaymentEvent, { type: 'walletChanged' }>): PaymentState {
  if (state.name === 'wrongNetwork') {
    return connection?.chainId === wantedChainId ? { name: 'connecting', invoice: state.invoice } : state
  }
  if (!beforeHandover.has(state.name) || !('payer' in state)) return state
  const { invoice, payer } = state
  if (!connection) return ready(invoice, null)
  if (!sameAddress(connection.owner, payer.owner)) return { name: 'connecting', invoice }
  if (connection.chainId !== wantedChainId) return { name: 'wrongNetwork', invoice, chainId: connection.chainId, wantedChainId, note: null }
  return state
}

function ready(invoice: ShownInvoice, note: StateNamed<'ready'>['note']): PaymentState {
  return { name: 'ready', invoice, note, rechecks: 0 }
}

/** An invoice held to the chain: refused when it differs, settled when the chain says so, and only
 * an Issued one goes on to `issued`. An unreadable chain goes on with the service's figures, which
 * stay marked unconfirmed. */
function checked(check: CheckInvoiceReturnType, issued: (invoice: ShownInvoice) => PaymentState, ours: Submitted | null = null): PaymentState {
  if (check.kind === 'unsafe') return { name: 'unsafe', invoice: check.invoice, problems: check.problems, handedOver: null }
  if (check.kind === 'confirmed' && check.invoice.status !== 'Issued') return settled(check.invoice, ours)
  return issued(check.invoice)
}

/** `accountBalance`, when read: the connected account's own funds, which can make up what the vault lacks. */
function resolved(invoice: ShownInvoice, payer: Payer, accountBalance?: bigint): PaymentState {
  const amount = BigInt(invoice.amount)
  if (payer.balance >= amount) return { name: 'connected', invoice, payer, note: null }
  const missing = amount - payer.balance
  return { name: 'insufficientBalance', invoice, payer, missing, ...(accountBalance !== undefined && accountBalance >= missing ? { fromWallet: true } : {}) }
}

/** A new permit for this payer: from the wallet again when the vault (as last read) still lacks part of
 * the amount, since the service would refuse the plain payment. */
function requestingPermit(invoice: ShownInvoice, payer: Payer): PaymentState {
  return payer.balance < BigInt(invoice.amount) ? { name: 'requestingPermit', invoice, payer, fromWallet: true } : { name: 'requestingPermit', invoice, payer }
}

/** A checked permit as the wallet will be asked for it, and what it authorises in plain terms. */
function toSign(invoice: ShownInvoice, typedData: PermitTypedData) {
  const { value, spender, deadline } = typedData.message
  return { typedData, authorisation: { amount: value, token: invoice.token, merchant: invoice.merchant, spender, deadline } }
}

/** A Paid or Canceled invoice ends the flow, whoever settled it; a receipt only when the chain names
 * our vault as the payer. */
function settled(invoice: ShownInvoice, ours: Submitted | null): PaymentState {
  if (invoice.status === 'Canceled') return { name: 'canceled', invoice }
  const byUs = ours !== null && invoice.payer !== null && sameAddress(invoice.payer, ours.payer.vault)
  return { name: 'paid', invoice, receipt: byUs ? receipt(ours, invoice) : null }
}

function receipt(state: Submitted, invoice: ShownInvoice): Receipt {
  return { amount: BigInt(invoice.amount), invoiceNumber: invoice.invoiceNumber, userOpHash: state.userOpHash, txHash: invoice.txHash, wallet: state.payer.owner }
}

/**
 * A signed operation is out: the chain says what became of it. Paid or canceled ends the flow;
 * "nothing was paid" only once the invoice is still Issued and the operation can no longer run:
 * the vault's nonce has moved past it (it ran without paying, or was replaced) or the chain's clock
 * has passed the end of its window.
 */
function followed(state: StateNamed<'pending'>, check: CheckInvoiceReturnType, vault: VaultOnChain | null, at: number): PaymentState {
  const again = { ...state, nextCheckAt: at + pendingPollMs }
  if (check.kind === 'unsafe') return { name: 'unsafe', invoice: state.invoice, problems: check.problems, handedOver: handedOver(state) }
  if (check.kind === 'unreadable') return again
  return checked(
    check,
    (invoice) => {
      if (vault && vault.nonce > state.userOp.nonce) return { name: 'permitExpired', invoice, payer: state.payer, reason: 'failed' }
      // the service said it sent the operation (200 or 202) and the chain never showed it: it was not sent
      if (vault && vault.blockTime > state.window.validUntil) return { name: 'permitExpired', invoice, payer: state.payer, reason: state.submission.kind === 'accepted' ? 'notSent' : 'expired' }
      return { ...again, invoice }
    },
    state,
  )
}

function handedOver(state: StateNamed<'pending'>) {
  return handedOverOf(state.invoice, state.permit, state.funding)
}

/** What the permits sent to the service allow, in the payer's terms. */
function handedOverOf(invoice: ShownInvoice, permit: PermitSignature, funding: Funding | undefined): HandedOverPermit {
  const vault = { amount: BigInt(invoice.amount), deadline: permit.deadline }
  return funding ? { ...vault, funding: { amount: funding.amount, deadline: funding.permit.deadline } } : vault
}

/** The same signed permit, prepared again for a sponsorship that has time left: nothing signed for
 * the lapsed operation can run, and the payer is asked only to sign the new one. */
function prepareAgain({ invoice, payer, permit, funding }: { invoice: ShownInvoice; payer: Payer; permit: PermitSignature; funding?: Funding | undefined }): PaymentState {
  return { name: 'preparing', invoice, payer, permit, ...(funding ? { funding } : {}) }
}

/** Ran out before anything was handed over that could pay: told once the chain shows it unpaid. */
function lapsed({ invoice, payer }: { invoice: ShownInvoice; payer: Payer }): PaymentState {
  return { name: 'refreshing', invoice, next: { name: 'permitExpired', invoice, payer, reason: 'expired' } }
}

/** The signed operation and what it was built from: all that carries over between submitting and pending. */
function operationOf({ invoice, payer, permit, funding, userOp, userOpHash, window, payment }: Submitted) {
  return { invoice, payer, permit, ...(funding ? { funding } : {}), userOp, userOpHash, window, payment }
}

/** Codes after which the permit itself is the problem: a new one is needed, which the payer chooses. */
function permitRefused(failure: Failure): boolean {
  return failure.kind === 'api' && (failure.code === 'PERMIT_SIGNATURE_INVALID' || failure.code === 'USEROP_PERMIT_MISMATCH')
}

/** No answer, or a server fault: the request may have taken effect (SPEC 7.2, 502/503). */
function uncertain(failure: Failure): boolean {
  return failure.kind !== 'api' || failure.status === 0 || failure.status >= 500
}

function beforeSubmissionFailed(state: StateNamed<'requestingPermit' | 'preparing'>, failure: Failure, at: number): PaymentState {
  const { invoice, payer } = state
  // The service's PERMIT_EXPIRED is its word, not the chain's: "expired" is said only when the chain's
  // clock has the signed deadline (nearly) passed; otherwise it means "ask for a new permit", and the
  // payer and the host are told that (PERMIT_REFUSED), never that it expired
  if (failure.kind === 'api' && failure.code === 'PERMIT_EXPIRED') {
    const next = errorState({ ...failure, code: 'PERMIT_REFUSED' }, at, requestingPermit(invoice, payer), 'NETWORK_ERROR')
    return { name: 'refreshing', invoice, next, ...(state.name === 'preparing' ? { lapse: { deadline: earliestDeadline(state.permit, state.funding?.permit), payer } } : {}) }
  }
  if (permitRefused(failure)) return { name: 'refreshing', invoice, next: errorState(failure, at, requestingPermit(invoice, payer), 'NETWORK_ERROR') }
  if (uncertain(failure) || (failure.kind === 'api' && failure.status === 429)) return errorState(failure, at, state, 'NETWORK_ERROR')
  // a refusal may mean the invoice was paid or canceled meanwhile: the chain says which
  return { name: 'refreshing', invoice, next: errorState(failure, at, state, 'NETWORK_ERROR') }
}

/** Once the operation has been handed to the service, only the chain can say what became of it:
 * every answer but rate limiting (refused before the operation is looked at) leads to following it
 * on-chain, never to preparing another behind the payer's back. */
function submissionFailed(state: StateNamed<'submitting'>, failure: Failure, at: number): PaymentState {
  if (failure.kind === 'api' && failure.status === 429) return errorState(failure, at, state, 'NETWORK_ERROR')
  const submission: SubmissionAnswer =
    failure.kind === 'api' && !uncertain(failure)
      ? { kind: 'refused', code: failure.code }
      : failure.kind === 'api' && failure.code === 'INVALID_RESPONSE'
        ? { kind: 'unknown', unreadable: true }
        : { kind: 'unknown' }
  return { name: 'pending', ...operationOf(state), submission, nextCheckAt: at }
}

/** The payer declining a signature is not an error: back to where they chose to pay, with a note
 * saying so (paying from the wallet: still short, still offered). */
function signatureFailed(
  state: StateNamed<'signingFunding' | 'signingPermit' | 'signingOperation'>,
  failure: Failure,
  at: number,
  note: 'permitRejected' | 'operationRejected',
): PaymentState {
  if (failure.kind !== 'rejected') return errorState(failure, at, state, 'WALLET_ERROR')
  const { invoice, payer } = state
  if (state.name === 'signingFunding' || state.funding) {
    return { name: 'insufficientBalance', invoice, payer, missing: BigInt(invoice.amount) - payer.balance, fromWallet: true, note }
  }
  return { name: 'connected', invoice, payer, note }
}

function errorState(failure: Failure, at: number, resume: PaymentState, otherwise: string): PaymentState {
  if (failure.kind === 'chainUnreadable') return { name: 'error', code: 'CHAIN_UNREADABLE', status: null, retryAt: null, resume }
  if (failure.kind !== 'api') return { name: 'error', code: otherwise, status: null, retryAt: null, resume }
  const retryAt = failure.retryAfter === null ? null : at + failure.retryAfter * 1000
  return { name: 'error', code: failure.code, status: failure.status, retryAt, resume }
}
