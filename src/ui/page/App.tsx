import { useEffect, useMemo } from 'preact/hooks'
import type { InvoiceDocument, PayApi } from '../../api/createPayApi'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import { createPaymentFlow } from '../../flow/createPaymentFlow'
import type { PaymentVerifier } from '../../flow/paymentFlowDependencies'
import { createWalletSession } from '../../wallet/createWalletSession'
import { useLocale } from '../LocaleContext'
import { useNow } from '../useNow'
import { usePaymentState } from '../usePaymentState'
import { useWalletChoices } from '../useWalletChoices'
import { whenIdle } from '../whenIdle'
import type { WidgetActions } from '../widget/PaymentWidget'
import { PayPage } from './PayPage'
import { embedEvents } from '../../frame/embedEvents'
import type { FrameChannel } from '../../frame/frameChannel'
import { unconfirmedInvoice } from '../../verify/confirmInvoice'
import { useInvoiceDocument } from './useInvoiceDocument'
import type { PageLayout } from './pageParams'
import { BrandScope } from './BrandScope'
import type { PageBranding } from './pageBrandingOf'
import { useBranding } from './useBranding'

const clock = { now: Date.now, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) }

// loaded with the first payment step: the page shows the invoice without them
const verifiers = () => import('../../verify/verifiers')
const verifier: PaymentVerifier = {
  verifyPermitToSign: async (...args) => (await verifiers()).verifyPermitToSign(...args),
  verifyFundingPermitToSign: async (...args) => (await verifiers()).verifyFundingPermitToSign(...args),
  verifyPreparedPayment: async (...args) => (await verifiers()).verifyPreparedPayment(...args),
  simulatePayment: async (...args) => (await verifiers()).simulatePayment(...args),
}

export type AppProps = {
  invoiceId: string
  token: string | null
  deployment: PinnedDeployment
  api: PayApi
  baseUrl: string
  /** Set when a merchant's page embeds this one: events go to it, its wallets come from it. */
  channel?: FrameChannel | null
  /** Set when the widget runs inline on a merchant's page: events go to the loader, and the page
   * (its title too) is the merchant's. */
  inlineHost?: Pick<FrameChannel, 'emit'> | null
  /** What the server rendered the page with: shown at once (unconfirmed), not fetched again. */
  served?: InvoiceDocument | null
  /** The layout the link asks for (pageParams: an embed's default is compact), or the inline mount's (compact unless `full`). */
  layout?: PageLayout
  /** The payee's branding the server rendered the page with (null: none); undefined where it rendered
   * none, and the page asks the service for it. Presentation only. */
  servedBranding?: PageBranding | null | undefined
}

/** Wires the pay page: one payment flow over the pinned deployment, the payer's wallets, and the API. */
export function App({ invoiceId, token, deployment, api, baseUrl, channel = null, inlineHost = null, served = null, layout = 'full', servedBranding }: AppProps) {
  const { strings: t, tag } = useLocale()
  // the devnet wallet the page opens writes amounts and moments as the page does, in its language
  const session = useMemo(() => createWalletSession(deployment, baseUrl, tag), [deployment, baseUrl, tag])
  const flow = useMemo(() => {
    const created = createPaymentFlow({ invoiceId, deployment, api, wallet: session.wallet, chain: session.chain, verifier, clock })
    // before the first render, so that it hydrates the markup the server rendered in this same state
    if (served) created.start(unconfirmedInvoice(served.invoice, deployment))
    return created
  }, [invoiceId, deployment, api, session, served])
  useEffect(() => {
    flow.start()
    return () => flow.dispose()
  }, [flow])
  const state = usePaymentState(flow)
  const wallets = useWalletChoices(session, channel)
  // the payer switching account or network in the wallet, at any step
  useEffect(() => session.watchConnection(flow.walletChanged), [session, flow])
  // the verifiers are needed at the first payment step: fetched while the payer reads the invoice
  useEffect(() => whenIdle(() => void verifiers()), [])
  const host = channel ?? inlineHost
  const notifyHost = useMemo(() => (host ? embedEvents(host, invoiceId) : null), [host, invoiceId])
  useEffect(() => notifyHost?.(state), [notifyHost, state])
  // the whole document, not only the app: the language switch the server renders above it is in the
  // frame too (an #app-high frame cut its last 40 px, 'Save receipt' among them)
  useEffect(() => channel?.watchHeight(globalThis.document.body), [channel])
  const [document, reloadDocument] = useInvoiceDocument(api, invoiceId, token, served)
  const branding = useBranding(baseUrl, invoiceId, servedBranding)
  const now = useNow(false)
  const actions: WidgetActions = useMemo(
    () => ({
      choose(choice) {
        session.choose(choice)
        flow.connect()
      },
      switchNetwork: flow.switchNetwork,
      pay: flow.pay,
      payFromWallet: flow.payFromWallet,
      sendToVault: flow.sendToVault,
      moveBack: flow.moveBack,
      renewPermit: flow.renewPermit,
      retry: flow.retry,
    }),
    [flow, session],
  )
  useEffect(() => {
    if (inlineHost) return
    globalThis.document.title = t.invoiceTitle(document.status === 'loaded' ? (document.document.metadata?.invoiceNumber ?? invoiceId) : invoiceId)
  }, [document, invoiceId, t, inlineHost])
  return (
    <BrandScope branding={branding}>
      <PayPage
        state={state}
        actions={actions}
        wallets={wallets}
        deployment={deployment}
        document={document}
        pdfUrl={token ? api.pdfUrl(invoiceId, token) : null}
        onReloadDocument={reloadDocument}
        now={now}
        readChain={session.chain.call}
        layout={layout}
        embedded={channel !== null || inlineHost !== null}
      />
    </BrandScope>
  )
}
