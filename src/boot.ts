import './ui/theme.css'
import { warmIntl } from './ui/warmIntl'

/**
 * The invoice is in the server's HTML already: the app (hydration, chain reads, wallets) is fetched
 * once the browser has painted it, so on a slow link its bytes never hold up the first paint.
 */
async function boot() {
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))
  const intlReady = warmIntl(document.documentElement.lang || navigator.language)
  // side by side: the app, and the served page's reader with the API (main.tsx says why apart)
  const [{ startPayPage }] = await Promise.all([import('./main'), import('./ui/page/servedPage')])
  await startPayPage(intlReady)
}

// Not a top-level await: this chunk also carries the bundler's preload helper (vite.config.ts), which
// the app's chunks import, and a module they import must finish evaluating before they can
void boot()
