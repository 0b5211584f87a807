import './ui/theme.css'

// The invoice is in the server's HTML already: the app (hydration, chain reads, wallets) is fetched
// once the browser has painted it, so on a slow link its bytes never hold up the first paint.
await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))
await import('./main')
