import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { WireInvoice } from '../../shared/wire'
import { confirmInvoice, unconfirmedInvoice, type ChainInvoice, type ShownInvoice } from '../verify/confirmInvoice'
import { checkAcceptedToken } from '../verify/checkAcceptedToken'
import { chainShownInvoice } from '../verify/chainShownInvoice'
import type { UnsafeProblem } from '../verify/unsafeProblem'

/** The service's invoice held to the chain: `confirmed` (the invoice carries the chain's figures),
 * `unreadable` (no chain read answered: the service's figures, unconfirmed), or `unsafe`. */
export type CheckInvoiceReturnType =
  | { kind: 'confirmed'; invoice: ShownInvoice }
  | { kind: 'unreadable'; invoice: ShownInvoice }
  | { kind: 'unsafe'; invoice: ShownInvoice; problems: UnsafeProblem[] }

/**
 * `reads` are the chain's answers from each source that answered (the pinned RPC, the wallet); all of
 * them must agree with the service. Where they disagree about the status (one node behind another),
 * the settled one wins: it can only stop a payment, never start one.
 */
export function checkInvoice(id: string, server: WireInvoice, reads: ChainInvoice[], deployment: PinnedDeployment): CheckInvoiceReturnType {
  const unconfirmed = unconfirmedInvoice(server, deployment)
  const tokenProblems = checkAcceptedToken({ token: server.token.address }, deployment)
  if (tokenProblems.length > 0) return { kind: 'unsafe', invoice: unconfirmed, problems: tokenProblems }
  let confirmed: ShownInvoice | null = null
  for (const read of reads) {
    const verdict = confirmInvoice(id, server, read, deployment)
    // the service's figures are disproved: the payer sees the chain's in their place, as the first
    // source (the pinned RPC) reads them (where it has no such invoice, the service's, marked
    // unconfirmed), and not the service's document
    if (!verdict.ok) {
      const invoice = chainShownInvoice(id, reads[0]!, deployment, server, true) ?? { ...unconfirmed, disproved: true as const }
      return { kind: 'unsafe', invoice, problems: verdict.problems }
    }
    if (!confirmed || confirmed.status === 'Issued') confirmed = verdict.invoice
  }
  return confirmed ? { kind: 'confirmed', invoice: confirmed } : { kind: 'unreadable', invoice: unconfirmed }
}
