/** Runs `work` once the browser has nothing more urgent to do (after the first paint), or within a
 * second at the latest; returns the function that cancels it. */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(work, { timeout: 1_000 })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(work, 1)
  return () => clearTimeout(id)
}
