import type { Logger } from '../http/logger'

export type PeriodicJobParameters = { everyMs: number; logger: Logger; /** What the log says when a pass fails. */ failure: string }

/**
 * Runs `pass` every `everyMs`, one at a time: a pass still going when the next is due (a backlog
 * after a long outage) is not joined by a second. A failing pass is logged and the next one runs as
 * planned. Unref'd: it never keeps the process alive. Returns the stop, which starts no further pass
 * and resolves once the pass under way has ended (a server closes its database after it); a pass
 * that works in batches checks `stopping()` between them.
 */
export function startPeriodicJob(pass: (stopping: () => boolean) => Promise<unknown>, { everyMs, logger, failure }: PeriodicJobParameters): () => Promise<void> {
  let stopping = false
  let running: Promise<void> | undefined
  const timer = setInterval(() => {
    if (running) return
    running = pass(() => stopping)
      .then(
        () => {},
        (error: unknown) => logger.error({ error: error instanceof Error ? error.name : 'unknown' }, failure),
      )
      .finally(() => (running = undefined))
  }, everyMs)
  timer.unref()
  return async () => {
    stopping = true
    clearInterval(timer)
    await running
  }
}
