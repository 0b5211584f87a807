import { hydrate, options, render } from 'preact'
import { allowedParentOrigins, openFrameChannel } from './frame/frameChannel'
import { pinned } from './config/pinned'
import { LocaleContext } from './ui/LocaleContext'
import { App } from './ui/page/App'
import { pageParams, preferredLanguages } from './ui/page/pageParams'
import { PageLinkContext } from './ui/page/PageLinkContext'
import { textDirection } from './ui/languages'
import { NotFoundPage } from './ui/page/PayPage'
import { readServedBranding } from './ui/page/servedBranding'
import { loadLocale } from './ui/strings'
import { nextTask } from './ui/nextTask'
import type { createPayApi } from './api/createPayApi'
import type { readServedPage, servedDocument } from './ui/page/servedPage'

/** What boot.ts loads beside this module: the API and the served page's reader carry every zod schema
 * the page has, and apart from the app they are a chunk whose evaluation is a task of its own rather
 * than a third more of this module's, the longest task of the page's load. */
export type PayPageParts = {
  createPayApi: typeof createPayApi
  readServedPage: typeof readServedPage
  servedDocument: typeof servedDocument
  /** Settles once Intl's first use is paid for off the main thread. */
  intlReady: Promise<void>
}

// A state change renders in a task after the one that made it (a chain check, a wallet's event): on a
// phone the work and the render it causes are two short tasks, not one long one a tap waits behind
options.debounceRendering = (render) => void nextTask().then(render)

/** Hydrates the invoice the server rendered (or renders the page where it rendered none) and starts
 * the payment flow. */
export async function startPayPage({ createPayApi, readServedPage, servedDocument, intlReady }: PayPageParts): Promise<void> {
  await nextTask()
  const params = pageParams(location)
  // the server may have rendered the invoice already: hydrated in the locale it was rendered in
  const served = params.invoiceId ? readServedPage(document) : null
  const locale = await loadLocale(served ? [served.locale] : preferredLanguages(params, navigator.languages))
  document.documentElement.lang = locale.strings.lang
  document.documentElement.dir = textDirection(locale.strings.lang)
  const channel = params.embed ? openFrameChannel(location, allowedParentOrigins(document)) : null
  if (params.embed) {
    document.documentElement.dataset.embed = '1'
    // parsed and checked in a chunk of its own: only a themed frame loads it
    if (params.theme) void import('./frame/applyEmbedTheme').then(({ applyEmbedTheme }) => applyEmbedTheme(document.documentElement, document.body, params.theme))
  }

  // the API is this page's own origin: the server that serves the page answers for it
  const baseUrl = ''
  const page = (
    <LocaleContext.Provider value={locale}>
      <PageLinkContext.Provider value={params.invoiceId ? { token: params.token, invoiceId: params.invoiceId, origin: location.origin } : null}>
      {/* a served not-found is the service's word: the app reads the chain before saying it */}
      {params.invoiceId ? (
        <App
          invoiceId={params.invoiceId}
          token={params.token}
          deployment={pinned}
          api={createPayApi({ baseUrl })}
          baseUrl={baseUrl}
          channel={channel}
          served={served && servedDocument(served)}
          layout={params.layout}
          servedBranding={served ? readServedBranding(document) : undefined}
        />
      ) : (
        <NotFoundPage />
      )}
      </PageLinkContext.Provider>
    </LocaleContext.Provider>
  )
  const root = document.getElementById('app')!
  // the invoice is on screen already: hydration is a task of its own, a tap need not wait behind the
  // reading above, and waits for Intl to be warm, whose first use alone would make it a long task
  await Promise.all([nextTask(), intlReady])
  if (served && !('notFound' in served)) hydrate(page, root)
  else {
    // render() adds to what is there: the server's not-found markup goes first, or the page shows two
    root.replaceChildren()
    render(page, root)
  }
}
