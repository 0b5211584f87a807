import { useState } from 'preact/hooks'
import type { DashboardStrings } from '../strings'

/** One page of a list and the cursor of the next (null on the last). */
export type Page<T> = { items: T[]; next: string | null }

/**
 * A cursor-paged list: the cursors of the pages already seen are kept, so Previous goes back to
 * exactly the page the merchant left (the routes' cursors lead one way only). `show` (re)loads the
 * page at the current cursor, the first with `fromStart`; a refusal is thrown to the caller.
 */
export function usePages<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined])
  const [page, setPage] = useState<Page<T> | null>(null)
  const open = async (path: (string | undefined)[]) => {
    setPage(await fetchPage(path[path.length - 1]))
    setCursors(path)
  }
  return {
    items: page?.items ?? null,
    show: (fromStart = false) => open(fromStart ? [undefined] : cursors),
    /** The page a list of cursors leads to, Previous going back along them. */
    openAt: open,
    pager: {
      page: cursors.length,
      hasNext: Boolean(page?.next),
      previous: () => open(cursors.slice(0, -1)),
      next: () => open([...cursors, page?.next ?? undefined]),
    },
  }
}

/** Previous and Next under a paged list, with the page number spoken as it changes; nothing while
 * the whole list fits one page. A refusal goes to `onProblem`. */
export function Pager({ label, pager, onProblem, t }: { label: string; pager: ReturnType<typeof usePages>['pager']; onProblem: (error: unknown) => void; t: DashboardStrings }) {
  if (pager.page === 1 && !pager.hasNext) return null
  return (
    <nav class="actions pager" aria-label={label}>
      <button type="button" class="secondary" disabled={pager.page === 1} onClick={() => pager.previous().catch(onProblem)}>
        {t.settings.previousPage}
      </button>
      <span aria-live="polite">{t.settings.pageOf(pager.page)}</span>
      <button type="button" class="secondary" disabled={!pager.hasNext} onClick={() => pager.next().catch(onProblem)}>
        {t.settings.nextPage}
      </button>
    </nav>
  )
}
