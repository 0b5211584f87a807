import { render } from 'preact'
import { createPayApi } from './api/createPayApi'
import { embedTheme } from './embed/embedTheme'
import { allowedParentOrigins, openFrameChannel } from './embed/frameChannel'
import { pinned } from './config/pinned'
import { LocaleContext } from './ui/LocaleContext'
import { App } from './ui/page/App'
import { pageParams } from './ui/page/pageParams'
import { NotFoundPage } from './ui/page/PayPage'
import { loadLocale } from './ui/strings'
import './ui/theme.css'

const params = pageParams(location)
const locale = await loadLocale(params.locale ? [params.locale, ...navigator.languages] : navigator.languages)
document.documentElement.lang = locale.strings.lang
const channel = params.embed ? openFrameChannel(location, allowedParentOrigins(document)) : null
if (params.embed) {
  document.documentElement.dataset.embed = '1'
  for (const [name, value] of Object.entries(embedTheme(params.theme))) document.documentElement.style.setProperty(name, value)
}

// the API is this page's own origin: the server that serves the page answers for it
const baseUrl = ''
const root = document.getElementById('app')!
render(
  <LocaleContext.Provider value={locale}>
    {params.invoiceId ? (
      <App invoiceId={params.invoiceId} token={params.token} deployment={pinned} api={createPayApi({ baseUrl })} baseUrl={baseUrl} channel={channel} />
    ) : (
      <NotFoundPage />
    )}
  </LocaleContext.Provider>,
  root,
)
