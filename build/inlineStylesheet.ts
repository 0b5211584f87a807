import type { Plugin } from 'vite'
import { BuildError } from './buildError.ts'

/**
 * The page's one stylesheet, in index.html itself: the server-rendered invoice paints from the first
 * response, without waiting a round trip for its styles (on a slow phone network a second
 * connection, a few hundred milliseconds). A few KB that every payer needs, on a page each payer opens
 * about once: nothing for a cache to save. The server allows exactly this style by its hash
 * (server/routes/payPage.ts), so the policy keeps refusing any other.
 */
export function inlineStylesheet(): Plugin {
  return {
    name: 'svc-inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (_, fileName: string) => {
          const asset = bundle?.[fileName]
          if (asset?.type !== 'asset') throw new BuildError('STYLESHEET_NOT_EMITTED', `index.html links ${fileName}, which the build did not emit: link a stylesheet the page imports, or import it`)
          // nothing else loads it: the inline widget builds its own copy (src/inline/mountInline.tsx)
          delete bundle![fileName]
          return `<style>${String(asset.source)}</style>`
        })
      },
    },
  }
}
