import { useEffect, useRef, useState } from 'preact/hooks'
import { devnetWalletRequestEvent, type DevnetWalletRequestDetail } from '../../wallet/devnetWalletRequest'
import { useLocale } from '../LocaleContext'
import { afterPayStrings } from '../strings.afterPay'
import { WalletIcon } from './WalletIcon'

/** The devnet wallet's window: the request it was asked to sign or send, in the lines the wallet
 * rendered (a descriptor's, or raw fields under a warning), with Approve and Reject. Shown only while
 * the devnet wallet asks. The wallet's own words (its title, buttons and warning) are the page's, in
 * the page's language; the descriptor's labels and intent are the descriptor's, as a wallet shows them. */
export function DevnetWalletPrompt() {
  const { strings: t } = useLocale()
  const a = afterPayStrings(t)
  const [asked, setAsked] = useState<DevnetWalletRequestDetail | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    const listener = (event: Event) => {
      event.preventDefault()
      setAsked((event as CustomEvent<DevnetWalletRequestDetail>).detail)
    }
    globalThis.addEventListener(devnetWalletRequestEvent, listener)
    return () => globalThis.removeEventListener(devnetWalletRequestEvent, listener)
  }, [])
  // the payer's own action (Pay) opened it: the request is where they act next
  useEffect(() => {
    if (asked) heading.current?.focus()
  }, [asked])
  if (!asked) return null
  const { request } = asked
  const answer = (approved: boolean) => {
    setAsked(null)
    asked.respond(approved)
  }
  return (
    <div class="svc-devnet-wallet" role="group" aria-labelledby="svc-devnet-wallet-title">
      <h3 id="svc-devnet-wallet-title" tabIndex={-1} ref={heading}>
        <WalletIcon kind="devnet" icon="" /> {a.devnetWalletTitle}
      </h3>
      <p>{request.kind === 'sign' ? a.devnetWalletSignRequest : a.devnetWalletSendRequest}</p>
      {request.intent ? <p><strong>{request.intent}</strong></p> : null}
      {request.warning === 'noDescription' ? <p class="svc-warning">{a.devnetWalletNoDescription}</p> : null}
      <dl class="svc-devnet-request">
        {request.rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd class="svc-address">{value}</dd>
          </div>
        ))}
      </dl>
      <div class="svc-devnet-actions">
        <button type="button" onClick={() => answer(false)}>
          {a.devnetWalletReject}
        </button>
        <button type="button" class="svc-approve" onClick={() => answer(true)}>
          {a.devnetWalletApprove}
        </button>
      </div>
    </div>
  )
}
