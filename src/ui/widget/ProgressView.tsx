import type { ComponentChildren } from 'preact'

/** Work under way: the heading says what; a spinner says it is still going. `reserve`: holds the room
 * of the wallet list that follows it (theme.css), so that the list arriving moves nothing below. */
export function ProgressView({ children, reserve }: { children?: ComponentChildren; reserve?: boolean }) {
  return (
    <div class={reserve ? 'svc-progress svc-progress-reserve' : 'svc-progress'}>
      <span class="svc-spinner" aria-hidden="true" />
      {children}
    </div>
  )
}
