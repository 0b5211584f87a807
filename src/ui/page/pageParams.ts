/** What the share link says (SPEC 2.6): `/pay/:id?token=svc_tk_…`, and `embed=1` when a merchant's
 * page frames it. A path that is not a pay link has no invoice id. */
export type PageParams = { invoiceId: string | null; token: string | null; embed: boolean; locale: string | null; theme: string | null; layout: PageLayout }

/** How much of the invoice the page shows: `full` (the share link's page), or `compact`, which a
 * merchant's mount option asks for where its storefront already shows the order. */
export type PageLayout = 'full' | 'compact'

/** The languages to show the page in, best first: the merchant's mount option, then the reader's. */
export function preferredLanguages(params: Pick<PageParams, 'locale'>, languages: readonly string[]): readonly string[] {
  return params.locale ? [params.locale, ...languages] : languages
}

export function pageParams(location: { pathname: string; search: string }): PageParams {
  const id = /^\/pay\/(0|[1-9]\d{0,77})\/?$/.exec(location.pathname)?.[1] ?? null
  const query = new URLSearchParams(location.search)
  const token = query.get('token')
  const locale = query.get('locale')
  return {
    invoiceId: id,
    token: token?.startsWith('svc_tk_') ? token : null,
    embed: query.get('embed') === '1',
    // a merchant's mount options: the language it shows in, and its theme
    locale: locale && /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(locale) ? locale : null,
    theme: query.get('theme'),
    layout: query.get('layout') === 'compact' ? 'compact' : 'full',
  }
}
