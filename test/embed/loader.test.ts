// @vitest-environment happy-dom
import { beforeAll, describe, expect, test, vi } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildEmbed, embedOutDir } from '../../embed/build'
import type { HostBridge } from '../../embed/hostBridge'
import type { HostKit } from '../../embed/hostKit'
import { mountFrame } from '../../embed/mount'

const base = 'http://127.0.0.1:8787/'
let loaderCode = ''

beforeAll(async () => {
  const manifest = await buildEmbed()
  loaderCode = readFileSync(join(embedOutDir, manifest.file), 'utf8')
})

/** Runs the built loader as the browser runs a script tag: document.currentScript is that tag. */
function include(dataset: Record<string, string>) {
  const script = document.createElement('script')
  for (const [key, value] of Object.entries(dataset)) script.dataset[key] = value
  Object.defineProperty(script, 'src', { value: `${base}embed.js` })
  document.body.appendChild(script)
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true })
  try {
    window.eval(loaderCode)
  } finally {
    Object.defineProperty(document, 'currentScript', { value: null, configurable: true })
  }
  return script
}

describe('the script-tag loader', () => {
  test('behavior: mounts an iframe to the pay page in place of the tag, token kept in the query', () => {
    const script = include({ invoiceId: '3', token: 'svc_tk_abc' })
    const frame = script.nextElementSibling?.querySelector('iframe')
    expect(frame).toBeTruthy()
    const url = new URL(frame!.src)
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:8787/pay/3')
    expect(url.searchParams.get('token')).toBe('svc_tk_abc')
    expect(url.searchParams.get('embed')).toBe('1')
    expect(url.searchParams.get('parent')).toBe(location.origin)
    expect(frame!.referrerPolicy).toBe('no-referrer')
  })

  test('behavior: included twice, it keeps one SvcCheckout and still mounts each tag', () => {
    include({})
    const first = window.SvcCheckout
    expect(first?.version).toBe('1')
    const second = include({ invoiceId: '4' })
    expect(window.SvcCheckout).toBe(first)
    expect(second.nextElementSibling?.querySelector('iframe')?.src).toContain('/pay/4?')
  })

  test('behavior: a bad mount call fails with a message that says what to do', () => {
    include({})
    // one message for either mistake: the loader's size budget
    const advice = 'SvcCheckout.mount: pass a DOM element and a numeric { invoiceId }'
    expect(() => window.SvcCheckout!.mount(document.body, { invoiceId: 'abc' })).toThrow(new TypeError(advice))
    expect(() => window.SvcCheckout!.mount(null as never, { invoiceId: '1' })).toThrow(new TypeError(advice))
  })
})

/** The kit as mountFrame uses it; `paid` stands for the chain's word (embed/hostPaid.ts): it passes on
 * only a `paid` naming `chainTx`, and records every one it was asked about. */
function fakeKit(chainTx: string, bridge: HostKit['bridge'] = () => Promise.reject(new Error('unused'))) {
  const asked: unknown[] = []
  const kit: HostKit = {
    bridge,
    inline: () => Promise.reject(new Error('unused')),
    async paid(claimed, emit) {
      asked.push(claimed)
      if (claimed.txHash === chainTx) emit('paid', claimed)
    },
  }
  return { asked, load: async () => kit }
}

describe('mountFrame', () => {
  const chainTx = `0x${'02'.repeat(32)}`

  test('behavior: events from the frame reach on() and DOM CustomEvents; forged ones do not', async () => {
    const host = document.createElement('div')
    document.body.appendChild(host)
    const kit = fakeKit(chainTx)
    const checkout = mountFrame(host, { invoiceId: '9' }, base, kit.load)
    const frame = host.querySelector('iframe')!
    const id = new URL(frame.src).searchParams.get('instance')!
    const paid = vi.fn()
    const dom = vi.fn()
    const ready = vi.fn()
    checkout.on('paid', paid)
    checkout.on('ready', ready)
    host.addEventListener('svc-checkout:paid', (event) => dom((event as CustomEvent).detail))
    const detail = { invoiceId: '9', userOpHash: `0x${'01'.repeat(32)}`, txHash: chainTx }
    const send = (origin: string, source: unknown, data: unknown) =>
      window.dispatchEvent(new MessageEvent('message', { origin, source: source as Window, data }))

    send('https://evil.example', frame.contentWindow, { svc: 1, id, type: 'paid', detail })
    send('http://127.0.0.1:8787', window, { svc: 1, id, type: 'paid', detail })
    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id: 'other', type: 'paid', detail })
    // the right frame, but another invoice than the one mounted
    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id, type: 'paid', detail: { ...detail, invoiceId: '10' } })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(kit.asked).toEqual([])
    expect(paid).not.toHaveBeenCalled()

    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id, type: 'ready', detail: { invoiceId: '9' } })
    expect(ready).toHaveBeenCalledWith({ invoiceId: '9' })
    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id, type: 'paid', detail })
    await vi.waitFor(() => expect(paid).toHaveBeenCalledWith(detail))
    expect(dom).toHaveBeenCalledWith(detail)

    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id, type: 'resize', height: 733.2 })
    expect(frame.style.height).toBe('734px')
    send('http://127.0.0.1:8787', frame.contentWindow, { svc: 1, id, type: 'resize', height: 19_999 })
    expect(frame.style.height).toBe('4000px')
  })

  test('behavior: the frame\'s own paid, well-formed and for the mounted invoice, reaches the page only through the chain\'s check: one the chain does not show is never heard', async () => {
    const host = document.body.appendChild(document.createElement('div'))
    const kit = fakeKit(chainTx)
    const checkout = mountFrame(host, { invoiceId: '9' }, base, kit.load)
    const frame = host.querySelector('iframe')!
    const id = new URL(frame.src).searchParams.get('instance')!
    const paid = vi.fn()
    const dom = vi.fn()
    checkout.on('paid', paid)
    host.addEventListener('svc-checkout:paid', (event) => dom((event as CustomEvent).detail))
    // a compromised checkout's page: the right origin, window and instance, an invented transaction
    const invented = { invoiceId: '9', userOpHash: '', txHash: `0x${'ee'.repeat(32)}` }
    window.dispatchEvent(new MessageEvent('message', { origin: 'http://127.0.0.1:8787', source: frame.contentWindow, data: { svc: 1, id, type: 'paid', detail: invented } }))
    await vi.waitFor(() => expect(kit.asked).toEqual([invented]))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(paid).not.toHaveBeenCalled()
    expect(dom).not.toHaveBeenCalled()
  })

  test('behavior: a paid the chain confirms after the checkout was destroyed is not heard', async () => {
    const host = document.body.appendChild(document.createElement('div'))
    let confirm!: () => void
    const kit: HostKit = {
      bridge: () => Promise.reject(new Error('unused')),
      inline: () => Promise.reject(new Error('unused')),
      paid: (claimed, emit) => new Promise<void>((resolve) => (confirm = () => resolve(emit('paid', claimed)))),
    }
    const checkout = mountFrame(host, { invoiceId: '9' }, base, async () => kit)
    const frame = host.querySelector('iframe')!
    const id = new URL(frame.src).searchParams.get('instance')!
    const paid = vi.fn()
    const dom = vi.fn()
    checkout.on('paid', paid)
    host.addEventListener('svc-checkout:paid', dom)
    window.dispatchEvent(new MessageEvent('message', { origin: 'http://127.0.0.1:8787', source: frame.contentWindow, data: { svc: 1, id, type: 'paid', detail: { invoiceId: '9', userOpHash: '', txHash: chainTx } } }))
    await vi.waitFor(() => expect(confirm).toBeDefined())
    checkout.destroy()
    confirm()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(paid).not.toHaveBeenCalled()
    expect(dom).not.toHaveBeenCalled()
  })

  test('behavior: a wallet bridge that failed to load is loaded again when the frame asks again', async () => {
    const host = document.body.appendChild(document.createElement('div'))
    const handled: string[] = []
    let loads = 0
    const loadBridge = async () => {
      if (++loads === 1) throw new TypeError('Failed to fetch dynamically imported module')
      return { handle: (message: { type: string }) => void handled.push(message.type), destroy() {} } as unknown as HostBridge
    }
    mountFrame(host, { invoiceId: '9' }, base, fakeKit(chainTx, loadBridge).load)
    const frame = host.querySelector('iframe')!
    const id = new URL(frame.src).searchParams.get('instance')!
    const ask = () =>
      window.dispatchEvent(new MessageEvent('message', { origin: 'http://127.0.0.1:8787', source: frame.contentWindow, data: { svc: 1, id, type: 'wallet:list' } }))

    ask()
    await vi.waitFor(() => expect(loads).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 0))
    ask()
    await vi.waitFor(() => expect(handled).toEqual(['wallet:list']))
    expect(loads).toBe(2)
  })

  test('behavior: destroy removes the iframe and every listener', () => {
    const added = vi.spyOn(window, 'addEventListener')
    const removed = vi.spyOn(window, 'removeEventListener')
    const host = document.createElement('div')
    const checkout = mountFrame(host, { invoiceId: '9' }, base, fakeKit(chainTx).load)
    const paid = vi.fn()
    checkout.on('paid', paid)
    const listener = added.mock.calls.find(([type]) => type === 'message')![1]
    checkout.destroy()
    expect(host.querySelector('iframe')).toBeNull()
    expect(removed).toHaveBeenCalledWith('message', listener)
    added.mockRestore()
    removed.mockRestore()
  })
})
