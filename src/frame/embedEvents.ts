import type { PaymentState } from '../flow/paymentState'
import type { FrameChannel } from './frameChannel'
import { knownErrorCode } from '../flow/knownErrorCode'

/**
 * Tells the host page what happened, once per change of state: `ready` when the invoice is shown,
 * `paid` whenever it is paid, `pending` with the operation hash (empty for a smart wallet's batch), `expired` when the permit ran out,
 * `error` with a code. The host acts on these (e.g. `paid` → order confirmed), so `paid` and `expired`
 * come only from states the flow enters on a chain read, and the txHash is the chain's. `channel` is
 * the frame's channel to the host, or inline the loader's listeners.
 */
export function embedEvents(channel: Pick<FrameChannel, 'emit'>, invoiceId: string) {
  let announcedReady = false
  let last = ''
  return (state: PaymentState) => {
    if (state.name === last) return
    last = state.name
    if (!announcedReady && state.name !== 'idle' && state.name !== 'loading') {
      announcedReady = true
      channel.emit('ready', { invoiceId })
    }
    switch (state.name) {
      // whoever paid: the operation's hash only when it was this widget's, the transaction when known
      case 'paid':
        return channel.emit('paid', { invoiceId, userOpHash: state.receipt?.userOpHash ?? '', txHash: state.receipt?.txHash ?? state.invoice.txHash ?? '' })
      case 'pending':
        return channel.emit('pending', { invoiceId, userOpHash: state.userOpHash })
      // a smart wallet's batch is out: its wallet built the operation, so no hash (as for its `paid`)
      case 'followingCalls':
        return channel.emit('pending', { invoiceId, userOpHash: '' })
      // ran out unpaid (the permit lapsed, or an operation the service said it sent never reached the
      // chain): renewable in the widget; ran without paying: failed
      case 'permitExpired':
        return state.reason === 'failed' ? channel.emit('error', { invoiceId, code: 'PAYMENT_FAILED' }) : channel.emit('expired', { invoiceId })
      case 'unsafe':
        return channel.emit('error', { invoiceId, code: 'UNSAFE_OPERATION' })
      // only codes of ours: never text a service chose. The flow's NOT_FOUND error is a service that
      // cannot find an invoice the chain holds open: to the host that is the service unavailable, since
      // NOT_FOUND (below) means the chain has no such invoice
      case 'error':
        return channel.emit('error', { invoiceId, code: state.code === 'NOT_FOUND' ? 'UNAVAILABLE' : knownErrorCode(state.code) })
      case 'notFound':
        return channel.emit('error', { invoiceId, code: 'NOT_FOUND' })
      default:
        return
    }
  }
}
