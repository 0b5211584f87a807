import type { FunctionComponent } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { Api } from '../dashboardApi'
import type { DashboardStrings } from '../strings'
import { errorText, Problem } from './Field'

export type ViewProps = { api: Api; t: DashboardStrings }

/**
 * A view fetched as a chunk of its own the first time it is opened: the settings pages are visited
 * now and then, and the script every sign-in downloads stays within its budget (test/size).
 */
export function LazyView({ load, api, t }: ViewProps & { load: () => Promise<FunctionComponent<ViewProps>> }) {
  const [loaded, setLoaded] = useState<{ View: FunctionComponent<ViewProps> } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    setLoaded(null)
    load().then((View) => setLoaded({ View }), (error: unknown) => setProblem(errorText(error)))
  }, [load])
  if (loaded) return <loaded.View api={api} t={t} />
  return problem ? <Problem message={problem} /> : <p>{t.loading}</p>
}
