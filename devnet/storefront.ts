import { createHash, createHmac, randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Hono } from 'hono'
import { distDir } from '../build/distDir'
import type { EmbedManifest } from '../embed/build'
// a merchant's server imports '@svc-checkout/js/server'; this repository holds the package's source
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../packages/checkout/src/server'
import { escapeHtml as escape } from '../server/http/escapeHtml'
import { listenOn } from '../server/http/listenOn'
import { hmacMessage } from '../shared/hmacMessage'
import { createdWebhookEndpointResponseSchema } from '../shared/webhookWire'
import { DevnetError } from './devnetError'

export type StorefrontProduct = { name: string; description: string; invoiceId: string; token: string; amount: string }

/** An order of the shop, by its invoice: paid or canceled only on a verified webhook. */
export type StorefrontOrder = { state: 'awaiting-payment' | 'paid' | 'canceled'; txHash?: string }

/** What the shop's server knows as a merchant: its studio's API key, and the vault and chain its
 * invoices are on, to take only its own events. */
export type StorefrontMerchant = { keyId: string; secret: string; vault: string; chainId: number; registry: string }

/** The shop's server side: its webhook secret once registered, and its orders. */
type ShopBackend = { secrets: string[]; orders: Map<string, StorefrontOrder>; merchant: StorefrontMerchant | null }

/** As the checkout shows an amount (grouped, two decimals at least), so the shop's price and the
 * checkout's total read the same: "4,540.00 USDC", not "4540 USDC". `amount` is a decimal string. */
export function shopPrice(amount: string): string {
  const [whole = '0', fraction = ''] = amount.split('.')
  const grouped = BigInt(whole).toLocaleString('en-US')
  return `${grouped}.${fraction.replace(/0+$/, '').padEnd(2, '0')} USDC`
}

function page(title: string, body: string, csp: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Northwind demo shop</title>
<link rel="stylesheet" href="/shop.css">
</head>
<body>
<header><a href="/">Northwind demo shop</a><span>a storefront on another origin, embedding svc-checkout</span></header>
<main>${body}</main>
<script src="/shop.js"></script>
</body>
</html>`
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer' },
  })
}

// On a phone (600 px or less) the shop's header is one line and its product tight, as a shop's own
// phone layout would be; a paid order's transaction hash (#order) and the code samples wrap.
const css = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap;padding:1rem 1.5rem;background:#12343b;color:#fff}
header a{color:#fff;font-weight:700;text-decoration:none}header span{opacity:.8;font-size:.9rem}
main{max-width:960px;margin:0 auto;padding:1.5rem;display:grid;gap:1.5rem}
.product{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px #0002}
.product h1{margin:.2rem 0}.price{font-size:1.4rem;font-weight:700}
#events{font:13px/1.4 ui-monospace,monospace;background:#111;color:#b5f5c8;padding:1rem;border-radius:8px;min-height:3rem;white-space:pre-wrap;overflow-wrap:anywhere}
ul.pages li{margin:.5rem 0}
#order-state{font-weight:700}#order-state[data-state=paid]{color:#0a6b3d}#order-note{color:#555}
.checkout-frame{display:block;border:0;width:100%;height:900px}
code,#order{overflow-wrap:anywhere}
@media (max-width:600px){header{padding:.75rem 1rem}header span{display:none}main{padding:1rem .5rem;gap:1rem}.product{padding:1rem .75rem}.product h1{font-size:1.5rem}.product p{margin:.5rem 0}}`

/** Logs every checkout event the host page receives, so the demo shows what a merchant gets. */
const js = `document.addEventListener('DOMContentLoaded',function(){var log=document.getElementById('events');if(!log)return;
['ready','paid','pending','expired','error','close'].forEach(function(name){document.addEventListener('svc-checkout:'+name,function(e){
var line=document.createElement('div');line.textContent=name+' '+JSON.stringify(e.detail);line.setAttribute('data-event',name);log.appendChild(line)})})})`

/**
 * A demo storefront on its own loopback origin: the three ways a merchant embeds the checkout, each
 * paying a demo invoice. Its CSP allows exactly what docs/embedding.md tells merchants to allow.
 */
function storefrontApp({
  checkoutUrl,
  manifest,
  products,
  devnetRpcUrl,
  shop,
}: {
  checkoutUrl: string
  manifest: EmbedManifest | null
  /** The devnet's node, the pinned RPC: this page reads a frame's `paid` there before it hears it,
   * and the devnet wallet, offered inline on this page too, reads the chain from here. */
  devnetRpcUrl?: string
  /** Read per request: the products' share tokens exist only once the checkout has seeded them. */
  products: () => StorefrontProduct[]
  shop: ShopBackend
}) {
  const app = new Hono()
  const checkout = new URL(checkoutUrl).origin
  // inline mode runs the widget on this page: it calls the checkout (connect-src); its styles are a
  // constructed stylesheet, which style-src does not govern; the studio's logo comes from the checkout (img-src)
  const devnetNode = devnetRpcUrl ? ` ${new URL(devnetRpcUrl).origin}` : ''
  const csp = `default-src 'self'; script-src 'self' ${checkout}; frame-src ${checkout}; connect-src 'self' ${checkout}${devnetNode}; img-src 'self' data: ${checkout}; style-src 'self'`
  // how the page embeds the checkout is a note for the developer reading the demo, under it: a shop's
  // first screen on a phone is its product and the checkout's Pay
  const product = (p: StorefrontProduct, how: string, checkoutHtml: string) => `<section class="product">
<h1>${escape(p.name)}</h1><p>${escape(p.description)}</p><p class="price">${escape(shopPrice(p.amount))}</p>
${checkoutHtml}</section><section><p>${escape(how)}</p><h2>Events received by this page</h2><div id="events" aria-live="polite"></div></section>`

  app.get('/shop.css', (c) => c.body(css, 200, { 'Content-Type': 'text/css' }))
  app.get('/shop.js', (c) => c.body(js, 200, { 'Content-Type': 'text/javascript' }))
  app.get('/', () =>
    page(
        'Shop',
        `<section class="product"><h1>Three ways to take a payment</h1><ul class="pages">
<li><a href="/script-tag">One script tag</a>: <code>&lt;script src="${escape(checkout)}/embed.js" data-invoice-id …&gt;</code></li>
<li><a href="/iframe">A plain iframe</a> of the pay page</li>
<li><a href="/inline">Inline</a>: <code>SvcCheckout.mount(el, { mode: "inline" })</code></li>
<li><a href="/order">An order</a> built with the npm package <code>@svc-checkout/js</code> (<code>loadCheckout</code>, the compact layout), which this shop's server marks paid only on a verified webhook</li></ul></section>`,
        csp,
      ),
  )
  /** A product page: the product, how it embeds the checkout, and the events the page receives. */
  const productPage = (path: string, index: number, how: string, checkoutHtml: (p: StorefrontProduct) => string) =>
    app.get(path, (c) => {
      const item = products()[index]
      if (!item) return c.notFound()
      return page(item.name, product(item, how, checkoutHtml(item)), csp)
    })
  const loader = manifest ? `${checkout}/embed/${manifest.file}" integrity="${manifest.integrity}" crossorigin="anonymous` : `${checkout}/embed.js`

  productPage('/script-tag', 0, 'Embedded with one script tag (a versioned file, with SRI)', (p) =>
    `<script src="${loader}" data-invoice-id="${escape(p.invoiceId)}" data-token="${escape(p.token)}" async></script>`,
  )
  // sized by the shop's stylesheet: its own CSP (style-src 'self') blocks a style attribute
  productPage('/iframe', 1, 'Embedded with a plain iframe, no script', (p) =>
    `<iframe title="Pay invoice" src="${checkout}/pay/${escape(p.invoiceId)}?token=${encodeURIComponent(p.token)}" referrerpolicy="no-referrer" class="checkout-frame"></iframe>`,
  )
  productPage('/inline', 2, 'Rendered inline, in a shadow root on this page', (p) =>
    `<div id="checkout" data-invoice-id="${escape(p.invoiceId)}" data-token="${escape(p.token)}"></div><script src="${loader}"></script><script src="/inline.js"></script>`,
  )
  productPage('/order', 0, 'Built with @svc-checkout/js: loadCheckout and the compact layout. This shop ships only when its server receives a verified invoice.paid webhook.', (p) => {
    const order = shop.orders.get(p.invoiceId) ?? { state: 'awaiting-payment' }
    const pinned = manifest ? ` data-loader-src="${checkout}/embed/${escape(manifest.file)}" data-loader-integrity="${escape(manifest.integrity)}"` : ''
    return `<div id="order" data-invoice-id="${escape(p.invoiceId)}" data-token="${escape(p.token)}" data-checkout="${escape(checkout)}"${pinned}>
<p>Order for invoice ${escape(p.invoiceId)}: <span id="order-state" data-state="${order.state}">${{ 'awaiting-payment': 'Awaiting payment', paid: 'Paid', canceled: 'Canceled' }[order.state]}</span></p><p id="order-note"></p></div>
<div id="checkout"></div><script src="/order.js"></script>`
  })
  let orderScript: Promise<string> | undefined
  app.get('/order.js', async (c) => {
    // bundled once, on first use: npm start does not wait for it
    orderScript ??= bundleOrderScript().catch((error: unknown) => {
      orderScript = undefined
      throw error
    })
    return c.body(await orderScript, 200, { 'Content-Type': 'text/javascript' })
  })
  app.get('/api/orders/:invoiceId', (c) => c.json(shop.orders.get(c.req.param('invoiceId')) ?? { state: 'awaiting-payment' }))
  /** The shop's webhook receiver: the only way an order becomes paid. */
  app.post('/webhooks/svc-checkout', async (c) => {
    // until its endpoint is registered the shop holds no secret, so nothing can verify
    if (shop.secrets.length === 0) return c.json({ error: 'NOT_REGISTERED', message: 'this shop has not registered its webhook endpoint yet' }, 503)
    const body = await c.req.text()
    let event: WebhookEvent
    try {
      event = verifyWebhook(body, c.req.raw.headers, shop.secrets)
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      return c.json({ error: error.code, message: error.message }, 400)
    }
    const { merchant } = shop
    // delivery is at least once: setting an order's state from the same event again changes nothing
    const ours = merchant && event.data.chainId === merchant.chainId && event.data.registry.toLowerCase() === merchant.registry.toLowerCase() && event.data.merchant.toLowerCase() === merchant.vault.toLowerCase()
    if (ours) {
      shop.orders.set(event.data.invoiceId, event.type === 'invoice.paid' ? { state: 'paid', txHash: event.data.txHash } : { state: 'canceled', txHash: event.data.txHash })
    }
    return c.body(null, 204)
  })
  app.get('/inline.js', (c) =>
    c.body(
      "addEventListener('load',function(){var el=document.getElementById('checkout');SvcCheckout.mount(el,{invoiceId:el.dataset.invoiceId,token:el.dataset.token,mode:'inline'})})",
      200,
      { 'Content-Type': 'text/javascript' },
    ),
  )
  return app
}

/**
 * Listens before the checkout does (the checkout's CSP must name this origin), so the checkout's URL
 * and the embed build are handed over once the checkout is up.
 */
export async function startStorefront({ port, products }: { port: number; products: () => StorefrontProduct[] }) {
  let app: Hono | null = null
  const shop: ShopBackend = { secrets: [], orders: new Map(), merchant: null }
  let checkoutUrl = ''
  const server = await listenOn({
    fetch: (request) => (app ? app.fetch(request) : new Response('starting', { status: 503 })),
    hostname: '127.0.0.1',
    port,
    variable: 'STOREFRONT_PORT',
  })
  const address = server.address()
  const bound = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://127.0.0.1:${bound}`,
    checkoutReady(checkout: string, devnetRpcUrl: string, manifest: EmbedManifest | null = readEmbedManifest(distDir())) {
      checkoutUrl = checkout
      app = storefrontApp({ checkoutUrl, manifest, products, devnetRpcUrl, shop })
    },
    /**
     * As a merchant's server does once: registers this shop's receiver as a webhook endpoint of the
     * merchant's studio (POST /v1/webhook-endpoints, signed with its API key) and keeps the secret.
     */
    async registerWebhook(merchant: StorefrontMerchant): Promise<{ id: string; url: string }> {
      const url = `http://127.0.0.1:${bound}/webhooks/svc-checkout`
      const created = await postSigned(checkoutUrl, '/v1/webhook-endpoints', { url, events: ['invoice.paid', 'invoice.canceled'] }, merchant)
      shop.merchant = merchant
      shop.secrets = [created.secret]
      return { id: created.id, url }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

/** A merchant API request signed as SPEC 5.2 says, with the studio's key. */
async function postSigned(checkoutUrl: string, path: string, body: unknown, { keyId, secret }: Pick<StorefrontMerchant, 'keyId' | 'secret'>) {
  const url = new URL(path, checkoutUrl)
  const text = JSON.stringify(body)
  const timestamp = String(Date.now())
  const nonce = randomUUID()
  const bodyHash = createHash('sha256').update(text).digest('base64')
  const message = hmacMessage({ method: 'POST', path: url.pathname, query: '', bodyHash, timestamp, nonce })
  // SPEC 5.2: the HMAC key is the secret's decoded bytes
  const signature = createHmac('sha256', Buffer.from(secret.slice('svc_sk_'.length), 'base64url')).update(message).digest('base64')
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-svc-key': keyId, 'x-svc-ts': timestamp, 'x-svc-nonce': nonce, authorization: `SVC-HMAC ${signature}` },
    body: text,
  })
  const json: unknown = await answer.json().catch(() => null)
  const parsed = createdWebhookEndpointResponseSchema.safeParse(json)
  if (!answer.ok || !parsed.success) throw new DevnetError('STOREFRONT_WEBHOOK_NOT_REGISTERED', `the storefront could not register its webhook endpoint: POST ${path} answered ${answer.status} ${JSON.stringify(json)}`)
  return parsed.data
}

const here = dirname(fileURLToPath(import.meta.url))

/** The order page's script, bundled from the package as a merchant's build would. */
async function bundleOrderScript(): Promise<string> {
  const result = await build({ entryPoints: [join(here, 'storefrontOrder.ts')], bundle: true, format: 'iife', target: 'es2022', minify: true, write: false, logLevel: 'warning' })
  return result.outputFiles[0]!.text
}

/** The loader of the page the checkout serves (`dir`: its build). */
export function readEmbedManifest(dir: string): EmbedManifest | null {
  const path = join(dir, 'embed', 'manifest.json')
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as EmbedManifest) : null
}
