/** Resolves in a later task: work after it no longer lengthens the task that awaited it, so the
 * browser can paint or answer a tap in between. `scheduler.yield()` where there is one (it resumes
 * ahead of other queued work), else a zero-delay timer. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve))
}
