import { warmIntl } from './ui/warmIntl'

/**
 * The invoice is in the server's HTML already: the app (hydration, chain reads, wallets) is fetched
 * once the browser has painted it, so on a slow link its bytes never hold up the first paint.
 */
async function boot() {
  await afterFirstPaint()
  const intlReady = warmIntl(document.documentElement.lang || navigator.language)
  // side by side: the app, and the served page's reader and the API (main.tsx's PayPageParts says why
  // apart); the bundler preloads nothing (vite.config.ts), so each is asked for here at once
  const [{ startPayPage }, { readServedPage, servedDocument }, { createPayApi }] = await Promise.all([
    import('./main'),
    import('./ui/page/servedPage'),
    import('./api/createPayApi'),
  ])
  await startPayPage({ createPayApi, readServedPage, servedDocument, intlReady })
}

/** Once the browser has painted, or a moment after the page starts where it paints nothing: a tab in
 * the background or a frame scrolled out of view gets no animation frames, and must start all the
 * same (an embedding merchant waits for its ready event). */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const unpainted = setTimeout(resolve, 200)
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(unpainted)
        resolve()
      }),
    )
  })
}

// Not a top-level await: this chunk also carries the bundler's preload helper (vite.config.ts), which
// the app's chunks import, and a module they import must finish evaluating before they can
void boot()
