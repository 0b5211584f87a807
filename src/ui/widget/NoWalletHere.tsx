import type { ComponentType } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import { shareLinkFor } from '../../../shared/shareLink'
import { walletAppLinks } from '../../wallet/walletAppLinks'
import { useLocale } from '../LocaleContext'
import { PageLinkContext } from '../page/PageLinkContext'
import type { QrCodeProps } from '../QrCode'

/** A phone, where wallets are apps rather than extensions: a touch screen without hover, or a phone's
 * browser by name (a tablet in desktop mode reports a mouse-like pointer). */
export function isPhone(): boolean {
  return matchMedia('(hover: none) and (pointer: coarse)').matches || /Android|iPhone|iPad|iPod/.test(navigator.userAgent)
}

/** This invoice's share link (SPEC 2.6), where the page knows it: not inline on a merchant's page,
 * nor without a token, nor on the server. */
export function useShareLink(): string | null {
  const link = useContext(PageLinkContext)
  return link?.origin && link.token ? shareLinkFor(link.origin, BigInt(link.invoiceId), link.token) : null
}

/**
 * For a payer whose browser has no wallet: on a computer, "Pay on your phone" with a QR code of this
 * very share link (the token in it); on a phone, links that open it in a wallet app's own browser.
 * Both carry the share link, not this page's address: an embedded page's link would open the embed.
 */
export function NoWalletHere({ shareLink }: { shareLink: string }) {
  const { strings: t } = useLocale()
  const [phone] = useState(isPhone)
  const [Qr, setQr] = useState<ComponentType<QrCodeProps> | null>(null)
  // the encoder is only for the payers who see the code: not in the page's first scripts
  useEffect(() => {
    if (phone) return
    let live = true
    void import('../QrCode').then(({ QrCode }) => live && setQr(() => QrCode))
    return () => void (live = false)
  }, [phone])
  return phone ? (
    <section class="svc-elsewhere" aria-labelledby="svc-open-in">
      <h3 id="svc-open-in">{t.openInWalletTitle}</h3>
      <p>{t.openInWalletBody}</p>
      <ul class="svc-wallet-apps">
        {walletAppLinks(shareLink).map(({ name, href }) => (
          <li key={name}>
            <a href={href} rel="noreferrer noopener" data-wallet={name}>
              {t.openIn(name)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  ) : (
    <section class="svc-elsewhere" aria-labelledby="svc-pay-on-phone">
      <h3 id="svc-pay-on-phone">{t.payOnPhoneTitle}</h3>
      <p>{t.payOnPhoneBody}</p>
      <div class="svc-qr-frame" data-share-link={shareLink}>
        {Qr ? <Qr value={shareLink} label={t.shareLinkQr} /> : null}
      </div>
    </section>
  )
}
