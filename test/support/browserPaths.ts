import { existsSync } from 'node:fs'

/** Debian's chromium, as CI installs it with apt-get: what Lighthouse measures the page in. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const headlessShell = '/usr/bin/chromium-headless-shell'

/**
 * What the browser tests drive: Debian's chromium-headless-shell when it is installed, the same
 * Chromium build without the desktop browser around it. The browser tests spend most of their CPU
 * in the browser, and took 136 s in it against 208 s in the full chromium on two cores, with the
 * same results; without it, the full chromium.
 */
export const testBrowserPath = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : chromiumPath)
