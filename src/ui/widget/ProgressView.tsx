import type { ComponentChildren } from 'preact'

/** Work under way: the heading says what; a spinner says it is still going. */
export function ProgressView({ children }: { children?: ComponentChildren }) {
  return (
    <div class="svc-progress">
      <span class="svc-spinner" aria-hidden="true" />
      {children}
    </div>
  )
}
