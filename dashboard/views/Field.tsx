import type { InputHTMLAttributes } from 'preact'

/** A labelled input: every field has a visible label tied to it, for screen readers and voice control. */
export function Field({ id, label, ...input }: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} name={id} {...input} />
    </>
  )
}

/** The API's message, announced as it appears. */
export function Problem({ message }: { message: string | null }) {
  return message ? <p class="alert" role="alert">{message}</p> : null
}

export function Notice({ message }: { message: string | null }) {
  return message ? <p class="note" role="status">{message}</p> : <p class="note" role="status" />
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The outcome of a page's last action (useAction): its problem, announced, and its notice. */
export function Outcome({ action }: { action: { problem: string | null; notice: string | null } }) {
  return (
    <>
      <Problem message={action.problem} />
      <Notice message={action.notice} />
    </>
  )
}
