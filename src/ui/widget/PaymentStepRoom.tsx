import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import type { Authorisation } from '../../flow/paymentState'
import { SigningOperationView } from './SigningOperationView'

type PaymentStepRoomProps = {
  /** The permit being signed: the payment step repeats its amount, payee and token. */
  authorisation: Authorisation
  merchantName: string | null
  /** The label the payment step shows beside the invoice's number (NW-0002): a long one takes a line. */
  invoiceLabel?: string | null
  /** Paying from the wallet: the payment step adds its lines for the funds taken from the wallet. */
  funded: boolean
  /** This step's own content, measured against the payment step's. */
  children: ComponentChildren
}

/**
 * The room the payment step ("Confirm the payment in your wallet", the tallest of a payment) will take,
 * claimed while the permit is signed, right after the payer pressed Pay. The card never shrinks while
 * the payment moves on (PaymentWidget), but it only holds what it has shown: without this, that step
 * arriving after the service's prepare and the page's checks pushed the invoice below down by a
 * quarter of a phone's screen, long after the payer's last touch.
 *
 * The step is laid out here, unseen and out of the accessibility tree, with the figures it will show
 * as far as they are known now (the fee and the operation's own window come later and change no line
 * count); what it needs beyond this step's own content becomes padding at the card's foot, below the
 * devnet wallet's window when it shows.
 */
export function PaymentStepRoom({ authorisation: a, merchantName, invoiceLabel = null, funded, children }: PaymentStepRoomProps) {
  const start = useRef<HTMLDivElement>(null)
  const unseen = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const ghost = unseen.current!
    const card = ghost.closest<HTMLElement>('.svc-widget')
    if (!card) return
    ghost.style.cssText = 'height:0;overflow:hidden;visibility:hidden'
    const own = ghost.getBoundingClientRect().top - start.current!.getBoundingClientRect().top
    const wanted = ghost.scrollHeight - own
    card.style.paddingBottom = ''
    if (wanted > 0) card.style.paddingBottom = `${parseFloat(getComputedStyle(card).paddingBottom) + wanted}px`
    return () => void (card.style.paddingBottom = '')
  })
  const { amount, merchant, deadline } = a
  // the fee's share as a rate in use would show it; the operation's window shorter than the permit's,
  // as the sponsorship's is, so that its line is laid out too
  const fee = amount / 100n
  return (
    <>
      <div ref={start} />
      {children}
      <div ref={unseen} aria-hidden="true" inert>
        <SigningOperationView
          payment={{ invoiceNumber: amount, amount, merchant, fromWallet: funded ? amount : 0n, validUntil: deadline }}
          token={a.token}
          merchantName={merchantName}
          invoiceLabel={invoiceLabel}
          validUntil={Number(deadline) - 1}
          simulated={{ paid: amount, merchantReceives: amount - fee, fee }}
        />
      </div>
    </>
  )
}
