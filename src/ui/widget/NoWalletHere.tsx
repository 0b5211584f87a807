import { useEffect, useState } from 'preact/hooks'
import type { WalletAppLink } from '../../wallet/walletAppLinks'
import { useLocale } from '../LocaleContext'
import { QrCode } from '../QrCode'

/** A phone, where wallets are apps rather than extensions: a touch screen without hover, or a phone's
 * browser by name (a tablet in desktop mode reports a mouse-like pointer). */
function isPhone(): boolean {
  return matchMedia('(hover: none) and (pointer: coarse)').matches || /Android|iPhone|iPad|iPod/.test(navigator.userAgent)
}

/**
 * For a payer whose browser has no wallet: on a computer, "Pay on your phone" with a QR code of this
 * very share link (the token in it); on a phone, links that open it in a wallet app's own browser.
 * Both carry the share link, not this page's address: an embedded page's link would open the embed.
 * What only one kind of payer needs (the encoder, the wallets' links) is fetched for them alone.
 */
export function NoWalletHere({ shareLink }: { shareLink: string }) {
  const { strings: t } = useLocale()
  const [phone] = useState(isPhone)
  const [links, setLinks] = useState<WalletAppLink[]>([])
  useEffect(() => {
    if (phone) void import('../../wallet/walletAppLinks').then((module) => setLinks(module.walletAppLinks(shareLink)))
  }, [phone, shareLink])
  return (
    <section class="svc-elsewhere">
      <h3>{phone ? t.openInWalletTitle : t.payOnPhoneTitle}</h3>
      <p>{phone ? t.openInWalletBody : t.payOnPhoneBody}</p>
      {phone ? (
        <ul class="svc-wallet-apps">
          {links.map(({ name, href }) => (
            <li key={name}>
              <a href={href} rel="noreferrer">
                {t.openIn(name)}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <div class="svc-qr-frame">
          <QrCode value={shareLink} label={t.shareLinkQr} />
        </div>
      )}
    </section>
  )
}
