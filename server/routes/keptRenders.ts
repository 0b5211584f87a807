/** What a kept render was made from: compared by identity, so a render is kept only while every input
 * is the very object it was made from. */
export type RenderInputs = readonly unknown[]

export type KeptRendersParameters = {
  /** How long a render is kept at most, even while its inputs stay the same. */
  ttlMs?: number
  maxEntries?: number
  now?: () => number
}

/**
 * Renders kept by key for as long as what they were made from is unchanged. The inputs are the
 * objects the caches below hand out (an invoice read, a decrypted record, the built page): while
 * they hand out the same object, a new render would be the same markup, and once any of them
 * changes (a new chain read, a revoked token, a rebuild) the next request renders again. So a kept
 * render is never older than the data it shows.
 */
export function keptRenders<T>({ ttlMs = 60_000, maxEntries = 500, now = Date.now }: KeptRendersParameters = {}) {
  const kept = new Map<string, { inputs: RenderInputs; at: number; render: T }>()
  return {
    get(key: string, inputs: RenderInputs): T | undefined {
      const entry = kept.get(key)
      if (!entry) return undefined
      if (now() - entry.at < ttlMs && entry.inputs.length === inputs.length && entry.inputs.every((input, i) => input === inputs[i])) return entry.render
      kept.delete(key)
      return undefined
    },
    set(key: string, inputs: RenderInputs, render: T): void {
      kept.delete(key)
      // the oldest goes first (a Map iterates in insertion order)
      if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!)
      kept.set(key, { inputs, at: now(), render })
    },
  }
}
