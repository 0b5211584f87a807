import type { Page, Route } from 'playwright-core'

const documentEdits = new WeakMap<Page, ((body: any) => void)[]>()

/** Rewrites one JSON answer of the service in flight; `path` is the exact path. The page is first
 * rendered with the invoice's answers already in it (a JSON block the client hydrates), so a lying
 * service tells the same lie there too. */
export async function rewrite(page: Page, path: string, edit: (body: any) => void, method = 'GET') {
  await page.route(
    (url) => url.pathname === path,
    async (route: Route) => {
      if (route.request().method() !== method) return route.fallback()
      const response = await route.fetch()
      const body = await response.json()
      edit(body)
      await route.fulfill({ response, json: body })
    },
  )
  if (method !== 'GET') return
  let edits = documentEdits.get(page)
  if (!edits) {
    const all: ((body: any) => void)[] = (edits = [])
    documentEdits.set(page, all)
    await page.route(
      (url) => url.pathname.startsWith('/pay/'),
      async (route: Route) => {
        const response = await route.fetch()
        const html = (await response.text()).replace(/(<script type="application\/json" id="svc-served">)(.*?)(<\/script>)/s, (_, open: string, json: string, close: string) => {
          const served = JSON.parse(json)
          // the invoice's own answer and the metadata answer carry the same invoice; the block holds the latter
          if (served.response) for (const change of all) change(served.response)
          return `${open}${JSON.stringify(served).replace(/</g, '\\u003c')}${close}`
        })
        await route.fulfill({ response, body: html })
      },
    )
  }
  edits.push(edit)
}
