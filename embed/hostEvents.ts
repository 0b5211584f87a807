import type { CheckoutEventName, CheckoutEvents } from '../shared/embedProtocol'

type Listener = (detail: never) => void

/** How a host page hears from one checkout, in either mode: `on(event, fn)` listeners, and DOM
 * CustomEvents `svc-checkout:<event>` bubbling from the mount element. Silent once cleared, so a
 * destroyed checkout tells the page nothing more. */
export function hostEvents(element: HTMLElement) {
  const listeners = new Map<string, Set<Listener>>()
  let target: HTMLElement | null = element
  return {
    on<K extends CheckoutEventName>(event: K, listener: (detail: CheckoutEvents[K]) => void): () => void {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener as Listener))
      return () => set.delete(listener as Listener)
    },
    emit(type: string, detail: unknown) {
      for (const listener of listeners.get(type) ?? []) listener(detail as never)
      target?.dispatchEvent(new CustomEvent(`svc-checkout:${type}`, { detail, bubbles: true }))
    },
    clear() {
      target = null
      listeners.clear()
    },
  }
}
