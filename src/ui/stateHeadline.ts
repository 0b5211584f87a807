import type { PaymentState } from '../flow/paymentState'
import type { Strings } from './strings'

/** What a state is, in one line: the view's heading and what assistive technology announces. */
export function stateHeadline(state: PaymentState, t: Strings): string {
  switch (state.name) {
    case 'idle':
    case 'loading':
      return t.loadingInvoice
    case 'notFound':
      return t.notFoundTitle
    case 'ready':
      return t.chooseWallet
    case 'paid':
      return state.receipt ? t.receiptTitle : t.paidTitle
    case 'canceled':
      return t.canceledTitle
    case 'connecting':
      return t.connecting
    case 'wrongNetwork':
      return t.wrongNetworkTitle
    case 'switchingNetwork':
      return t.switchingNetwork
    case 'connected':
      return t.payTitle
    case 'insufficientBalance':
      return t.insufficientTitle
    case 'sendingToVault':
      return t.sendingToVaultTitle
    case 'requestingPermit':
      return t.requestingPermit
    case 'signingFunding':
      return t.fundingTitle
    case 'signingPermit':
      return t.permitTitle
    case 'preparing':
      return t.preparing
    case 'verifying':
      return t.verifying
    case 'unsafe':
      return t.unsafeTitle
    case 'signingOperation':
      return t.signingTitle
    case 'submitting':
      return t.submitting
    case 'pending':
      return state.submission.kind === 'accepted' ? t.pendingTitle : t.reconciling
    case 'checking':
    case 'refreshing':
      return t.refreshing
    case 'permitExpired':
      return state.reason === 'expired' ? t.permitExpiredTitle : t.failedOnChainTitle
    case 'error':
      // nothing was attempted when the chain cannot be read, or the service cannot find an invoice the chain holds
      if (state.code === 'CHAIN_UNREADABLE') return t.cannotCheckTitle
      return state.code === 'NOT_FOUND' ? t.serviceNotFoundTitle : t.errorTitle
    // a smart account short of the amount (and taking its vault's funds back meanwhile) is short of funds
    case 'smartWallet':
    case 'followingMoveBack':
      return !state.payer.cannotPay && state.payer.balance < BigInt(state.invoice.amount) ? t.insufficientTitle : t.payTitle
    case 'movingBack':
      return t.connecting
    case 'sendingCalls':
      return t.signingTitle
    case 'followingCalls':
      return t.pendingTitle
  }
}
