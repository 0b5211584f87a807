import type { ComponentChildren } from 'preact'
import type { Authorisation } from '../../flow/paymentState'
import { formatTokenAmount } from '../format'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { Detail } from './Detail'
import { PermitDeadline } from './PermitDeadline'
import { ProgressView } from './ProgressView'
import { ShortHex } from './ShortHex'

type AuthorisationViewProps = {
  authorisation: Authorisation
  /** Which of several signatures this is, when there are several. */
  step: string | null
  /** The sentence that says what is allowed, given the formatted amount. */
  summary: ((amount: string) => string) | null
  /** Whose funds, or who is paid: the row between the token and the spender. */
  party: { label: string; children: ComponentChildren }
  spenderLabel: string
}

/** A permit the wallet is about to ask for, in plain words and in full, before it asks. */
export function AuthorisationView({ authorisation: a, step, summary, party, spenderLabel }: AuthorisationViewProps) {
  const { strings: t, tag } = useLocale()
  const w = afterPayStrings(t)
  const amount = formatTokenAmount(a.amount, a.token, tag)
  return (
    <>
      {step ? <p class="svc-step">{step}</p> : null}
      {summary ? <p>{summary(amount)}</p> : null}
      <dl class="svc-details">
        <Detail label={w.permitAmount}>{amount}</Detail>
        <Detail label={w.permitToken}>
          {a.token.symbol} <ShortHex value={a.token.address} label={t.labelAddress} />
        </Detail>
        <Detail label={party.label}>{party.children}</Detail>
        <Detail label={w.permitDeadline}>
          <PermitDeadline deadline={a.deadline} />
        </Detail>
      </dl>
      {/* which contract takes the amount is what a wallet shows as the spender: there for whoever
          compares, not a step the payer needs to read */}
      <details class="svc-technical">
        <summary>{w.unsafeDetails}</summary>
        <dl class="svc-details">
          <Detail label={spenderLabel}>
            <ShortHex value={a.spender} label={t.labelAddress} />
          </Detail>
        </dl>
      </details>
      <p class="svc-hint">{w.walletRequestNext}</p>
      <ProgressView>{t.connecting}</ProgressView>
    </>
  )
}
