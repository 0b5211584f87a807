// @vitest-environment happy-dom
import { expect, test, vi } from 'vitest'
import type { FrameChannel } from '../../src/frame/frameChannel'
import type { InlineOptions } from '../../src/inline/mountInline'
import { mountInline } from '../../embed/mount'

const base = 'http://127.0.0.1:8787/'

/** The inline widget as the loader sees it, through the kit: what it was mounted with, and its `emit`. */
function fakeWidget() {
  const mounted: { box?: HTMLElement; options?: InlineOptions; base?: string; emit?: FrameChannel['emit']; destroy: () => void } = { destroy: vi.fn() }
  const unused = () => Promise.reject(new Error('not in this test'))
  const load: Parameters<typeof mountInline>[3] = async () => ({
    bridge: unused,
    paid: unused,
    inline: async () => ({
      mountInline(box, options, widgetBase, emit) {
        Object.assign(mounted, { box, options, base: widgetBase, emit })
        return { destroy: mounted.destroy }
      },
    }),
  })
  return { mounted, load }
}

test('default: the widget gets a box of its own inside the element, the options and the checkout base', async () => {
  const host = document.body.appendChild(document.createElement('div'))
  const { mounted, load } = fakeWidget()
  mountInline(host, { invoiceId: '7', token: 'svc_tk_abc', mode: 'inline' }, base, load)
  await vi.waitFor(() => expect(mounted.box).toBeDefined())
  expect(mounted.box!.parentElement).toBe(host)
  expect(mounted.options).toMatchObject({ invoiceId: '7', token: 'svc_tk_abc' })
  expect(mounted.base).toBe(base)
})

// the widget is pinned code reading the chain itself, on this page: its `paid` needs no second look
test('behavior: its events reach on() and DOM CustomEvents on the element, as in iframe mode', async () => {
  const host = document.body.appendChild(document.createElement('div'))
  const { mounted, load } = fakeWidget()
  const checkout = mountInline(host, { invoiceId: '7' }, base, load)
  const paid = vi.fn()
  const dom = vi.fn()
  checkout.on('paid', paid)
  document.addEventListener('svc-checkout:paid', (event) => dom((event as CustomEvent).detail))
  await vi.waitFor(() => expect(mounted.emit).toBeDefined())
  const detail = { invoiceId: '7', userOpHash: '0x01', txHash: '0x02' }
  mounted.emit!('paid', detail)
  expect(paid).toHaveBeenCalledWith(detail)
  expect(dom).toHaveBeenCalledWith(detail)
})

test('behavior: destroy removes the widget and its box, and the page hears nothing more', async () => {
  const host = document.body.appendChild(document.createElement('div'))
  const { mounted, load } = fakeWidget()
  const checkout = mountInline(host, { invoiceId: '7' }, base, load)
  const ready = vi.fn()
  const dom = vi.fn()
  checkout.on('ready', ready)
  host.addEventListener('svc-checkout:ready', dom)
  await vi.waitFor(() => expect(mounted.emit).toBeDefined())
  checkout.destroy()
  await vi.waitFor(() => expect(mounted.destroy).toHaveBeenCalledOnce())
  expect(host.children).toHaveLength(0)
  mounted.emit!('ready', { invoiceId: '7' })
  expect(ready).not.toHaveBeenCalled()
  expect(dom).not.toHaveBeenCalled()
})

test('behavior: destroyed before the widget loaded, it is destroyed as soon as it mounts', async () => {
  const host = document.body.appendChild(document.createElement('div'))
  const { mounted, load } = fakeWidget()
  mountInline(host, { invoiceId: '7' }, base, load).destroy()
  await vi.waitFor(() => expect(mounted.destroy).toHaveBeenCalledOnce())
  expect(host.children).toHaveLength(0)
})
