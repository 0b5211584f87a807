import type { CheckoutEvents } from '../shared/embedProtocol'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { announceModule } from '../shared/pinnedModule'
import { pinnedRpcProvider } from '../src/chain/rpcProvider'
import { confirmPaid, type PaidRefusal } from './confirmPaid'

// the pay page's pinned deployment (embed/build.ts defines it from the page's build, as for the bridge)
declare const __SVC_DEPLOYMENT__: PinnedDeployment

type Paid = CheckoutEvents['paid']

const provider = pinnedRpcProvider({ urls: __SVC_DEPLOYMENT__.rpcUrls, chainId: __SVC_DEPLOYMENT__.chainId })

// what the merchant reads in the console when a `paid` is held back: the one place it is told
const why: Record<PaidRefusal, string> = {
  notYet: `the checkout's chain does not show the payment, or could not be read at ${__SVC_DEPLOYMENT__.rpcUrls.join(' ')} (your page's Content-Security-Policy must allow it in connect-src)`,
  notPaid: 'the registry does not record the invoice as paid',
  noPaymentEvent: "the transaction named does not carry the registry's payment of this invoice",
  otherOperation: 'the transaction named does not carry the operation named',
}

/**
 * The host's check of a frame's `paid` (embed/confirmPaid.ts), loaded by the kit, pinned by its hash,
 * the first time a frame says `paid`: a frame that is not the checkout's own code (a compromised
 * checkout server serves whatever it likes in it) cannot make the page hear `paid` the chain does not
 * show. `emit` is the mount's: silent once it is destroyed.
 */
export async function hostPaid(claimed: Paid, emit: (type: 'paid', detail: Paid) => void): Promise<void> {
  const seen = await confirmPaid(provider, __SVC_DEPLOYMENT__, claimed)
  if (typeof seen === 'object') return emit('paid', seen)
  console.warn(`svc-checkout: the checkout said invoice ${claimed.invoiceId} is paid; not passed on: ${why[seen]}`)
}

export type HostPaidModule = { hostPaid: typeof hostPaid }

announceModule('__svcPaid', { hostPaid } satisfies HostPaidModule)
