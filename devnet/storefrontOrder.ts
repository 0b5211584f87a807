// The demo storefront's order page, in the browser: bundled on first request (devnet/storefront.ts)
// from the merchant package's browser entry, as a merchant's build bundles `@svc-checkout/js`. The
// repository has no install of the package under that name, so the import is the package's source.
import { loadCheckout } from '../packages/checkout/src/index'

type OrderState = { state: 'awaiting-payment' | 'paid' | 'canceled'; txHash?: string }

const words: Record<OrderState['state'], string> = {
  'awaiting-payment': 'Awaiting payment',
  paid: 'Paid: confirmed by a verified webhook from the chain. Ready to ship.',
  canceled: 'Canceled: the invoice was canceled.',
}

async function start() {
  const order = document.getElementById('order')
  const state = document.getElementById('order-state')
  const note = document.getElementById('order-note')
  const element = document.getElementById('checkout')
  if (!order || !state || !note || !element) return
  const { invoiceId = '', token = '', checkout = '', loaderSrc, loaderIntegrity } = order.dataset

  // the order's state is the shop server's, which changes it only on a verified webhook
  const show = (current: OrderState) => {
    state.dataset.state = current.state
    if (current.state !== 'awaiting-payment') note.textContent = ''
    state.textContent = current.txHash ? `${words[current.state]} (transaction ${current.txHash})` : words[current.state]
  }
  const poll = async () => {
    const answer = await fetch(`/api/orders/${encodeURIComponent(invoiceId)}`).catch(() => null)
    if (answer?.ok) show((await answer.json()) as OrderState)
    if (state.dataset.state === 'awaiting-payment') setTimeout(poll, 1000)
  }
  void poll()

  const svc = await loadCheckout(checkout, { ...(loaderSrc ? { src: loaderSrc } : {}), ...(loaderIntegrity ? { integrity: loaderIntegrity } : {}) })
  if (!svc) return
  const mounted = svc.mount(element, { invoiceId, token, layout: 'compact' })
  // the browser's word is shown as what it is: anyone can fire this event in their own browser
  mounted.on('paid', () => {
    if (state.dataset.state === 'awaiting-payment') note.textContent = 'The checkout in your browser reports a payment; the order waits for the shop\'s server to confirm it from a signed webhook.'
  })
}

void start().catch((error: Error) => {
  const note = document.getElementById('order-note')
  if (note) note.textContent = error.message
})
