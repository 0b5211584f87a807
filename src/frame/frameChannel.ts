import { protocolVersion, readHostMessage, type CheckoutEventName, type CheckoutEvents, type FrameMessage, type HostMessage } from '../../shared/embedProtocol'

export type FrameChannel = {
  parentOrigin: string
  emit<K extends CheckoutEventName>(type: K, detail: CheckoutEvents[K]): void
  send(message: FrameMessage): void
  onMessage(listener: (message: HostMessage) => void): () => void
  /** Keeps the host's iframe as tall as the page; returns the stop function. */
  watchHeight(element: HTMLElement): () => void
}

/**
 * The pay page's side of the embed protocol, or null when the page is not embedded by an allowed
 * parent. The parent named in the query is only a claim: it must be one of the origins this
 * deployment allows to frame it (the server lists them in a meta tag, the same list as CSP
 * frame-ancestors), and where the browser reports the real ancestor it must be that one. Messages go
 * to that exact origin, so a different parent never receives them.
 */
export function openFrameChannel(location: Location, allowedParents: string[]): FrameChannel | null {
  const query = new URLSearchParams(location.search)
  const id = query.get('instance')
  const parentOrigin = query.get('parent')
  if (query.get('embed') !== '1' || !id || !parentOrigin || window.parent === window) return null
  if (!allowedParents.includes(parentOrigin)) return null
  const ancestors = location.ancestorOrigins
  if (ancestors && ancestors.length > 0 && ancestors[0] !== parentOrigin) return null

  const send = (message: FrameMessage) => window.parent.postMessage({ ...message, svc: protocolVersion, id }, parentOrigin)
  return {
    parentOrigin,
    send,
    emit: (type, detail) => send({ type, detail } as FrameMessage),
    onMessage(listener) {
      const handler = (event: MessageEvent) => {
        if (event.origin !== parentOrigin || event.source !== window.parent) return
        const message = readHostMessage(event.data, id)
        if (message) listener(message)
      }
      window.addEventListener('message', handler)
      return () => window.removeEventListener('message', handler)
    },
    watchHeight(element) {
      let last = -1
      const observer = new ResizeObserver(() => {
        const height = Math.ceil(element.getBoundingClientRect().height)
        if (height !== last) send({ type: 'resize', height: (last = height) })
      })
      observer.observe(element)
      return () => observer.disconnect()
    },
  }
}

/** The origins allowed to frame the page, as the server wrote them into the page. */
export function allowedParentOrigins(document: Document): string[] {
  const content = document.querySelector('meta[name="svc-frame-ancestors"]')?.getAttribute('content') ?? ''
  return content.split(/\s+/).filter((origin) => /^https?:\/\/[^/\s]+$/.test(origin))
}
