import type { ComponentChildren, VNode } from 'preact'
import type { DashboardStrings } from '../strings'

/**
 * A list as every settings page shows it: "Loading" until it has come, its own words when it is
 * empty, else a table in a scrollable region named for screen readers (focusable, so a keyboard
 * user can scroll a wide one). Without `empty`, an empty list is an empty table.
 */
export function ListTable<T>({ items, empty, label, columns, row, t }: { items: T[] | null; empty?: string; label: string; columns: ComponentChildren[]; row: (item: T) => VNode; t: DashboardStrings }) {
  if (items === null) return <p>{t.loading}</p>
  if (items.length === 0 && empty !== undefined) return <p>{empty}</p>
  return (
    <div class="table" role="region" aria-label={t.table(label)} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((column, at) => (
              <th scope="col" key={at}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  )
}

/** A button in a row of a list, waiting while another action runs. */
export function RowAction({ busy, onClick, children }: { busy: boolean; onClick: () => void; children: ComponentChildren }) {
  return (
    <button type="button" class="secondary" disabled={busy} onClick={onClick}>
      {children}
    </button>
  )
}
