import type { Plugin } from 'vite'

/**
 * The page's scripts at low fetch priority. The server renders the invoice into the HTML, so nothing
 * a payer reads waits for JavaScript: on a slow phone network the scripts must not take bandwidth
 * from the document and its first paint, which they would at the high priority browsers give module
 * scripts and modulepreload by default. They still load at once and in parallel; only the order of
 * bytes on a contended link changes.
 */
export function scriptsAfterPaint(): Plugin {
  return {
    name: 'svc-scripts-after-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, (_, tag: string) => `<${tag} fetchpriority="low"`),
    },
  }
}
