import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** Where `program` is on PATH (Debian's packages put chromium and its headless shell in /usr/bin). */
export const onPath = (program: string, path = process.env.PATH ?? ''): string | undefined =>
  path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, program))
    .find((file) => existsSync(file))

/** Debian's chromium, as CI installs it with apt-get: what Lighthouse measures the page in. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? onPath('chromium') ?? '/usr/bin/chromium'

/**
 * What the browser tests drive: Debian's chromium-headless-shell when it is installed, the same
 * Chromium build without the desktop browser around it. The browser tests spend most of their CPU
 * in the browser, and took 136 s in it against 208 s in the full chromium on two cores, with the
 * same results; without it, the full chromium.
 */
export const testBrowserPath = process.env.CHROMIUM_PATH ?? onPath('chromium-headless-shell') ?? chromiumPath
