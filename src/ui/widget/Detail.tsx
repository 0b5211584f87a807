import type { ComponentChildren } from 'preact'

/** One labelled value in a description list; `mono` for addresses and hashes, which wrap anywhere. */
export function Detail({ label, mono = false, children }: { label: string; mono?: boolean; children: ComponentChildren }) {
  return (
    <div class="svc-detail">
      <dt>{label}</dt>
      <dd class={mono ? 'svc-mono' : undefined}>{children}</dd>
    </div>
  )
}
