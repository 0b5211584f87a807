import { useEffect, useRef, useState } from 'preact/hooks'
import { devnetWalletRequestEvent, type DevnetWalletRequestDetail } from '../../wallet/devnetWalletRequest'
import { useLocale } from '../LocaleContext'
import { WalletIcon } from './WalletIcon'

/** The devnet wallet's window: the request it was asked to sign or send, field by field as a wallet
 * shows typed data, with Approve and Reject. Shown only while the devnet wallet asks. */
export function DevnetWalletPrompt() {
  const { strings: t } = useLocale()
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
  const rows = request.kind === 'sign' ? [...Object.entries(request.domain).map(([k, v]) => [`domain.${k}`, v] as const), ['type', request.primaryType] as const, ...Object.entries(request.message)] : Object.entries(request.transaction)
  return (
    <div class="svc-devnet-wallet" role="group" aria-labelledby="svc-devnet-wallet-title">
      <h3 id="svc-devnet-wallet-title" tabIndex={-1} ref={heading}>
        <WalletIcon kind="devnet" icon="" /> {t.devnetWalletTitle}
      </h3>
      <p>{request.kind === 'sign' ? t.devnetWalletSignRequest : t.devnetWalletSendRequest}</p>
      <dl class="svc-devnet-request">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd class="svc-address">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </div>
        ))}
      </dl>
      <div class="svc-devnet-actions">
        <button type="button" onClick={() => answer(false)}>
          {t.devnetWalletReject}
        </button>
        <button type="button" class="svc-approve" onClick={() => answer(true)}>
          {t.devnetWalletApprove}
        </button>
      </div>
    </div>
  )
}
