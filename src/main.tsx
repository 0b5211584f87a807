import { render } from 'preact'
import { createPayApi } from './api/createPayApi'
import { pinned } from './config/pinned'
import { LocaleContext } from './ui/LocaleContext'
import { App } from './ui/page/App'
import { pageParams } from './ui/page/pageParams'
import { NotFoundPage } from './ui/page/PayPage'
import { loadLocale } from './ui/strings'
import './ui/theme.css'

const params = pageParams(location)
const locale = await loadLocale(navigator.languages)
document.documentElement.lang = locale.strings.lang
// read by the embedding loader's styles later; the page itself behaves the same
if (params.embed) document.documentElement.dataset.embed = '1'

// the API is this page's own origin: the server that serves the page answers for it
const baseUrl = ''
const root = document.getElementById('app')!
render(
  <LocaleContext.Provider value={locale}>
    {params.invoiceId ? (
      <App invoiceId={params.invoiceId} token={params.token} deployment={pinned} api={createPayApi({ baseUrl })} baseUrl={baseUrl} />
    ) : (
      <NotFoundPage />
    )}
  </LocaleContext.Provider>,
  root,
)
