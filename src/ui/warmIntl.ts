/**
 * Formats an amount and a date in a worker thread, so that the browser's first use of Intl (tens of
 * milliseconds on a phone, spent loading ICU's data) is not spent on the main thread while the page
 * hydrates. Resolves once the worker is done, after `timeoutMs` at the latest, or at once where no
 * worker can start: warming is never worth waiting longer for than the cold path it saves.
 */
export function warmIntl(tag: string, timeoutMs = 1_000): Promise<void> {
  let worker: Worker
  try {
    worker = new Worker(new URL('./warmIntl.worker.ts', import.meta.url), { type: 'module', name: 'warm-intl' })
  } catch {
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      worker.terminate()
      resolve()
    }
    const timer = setTimeout(done, timeoutMs)
    worker.onmessage = done
    worker.onerror = done
    worker.postMessage(tag)
  })
}
