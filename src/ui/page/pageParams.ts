/** What the share link says (SPEC 2.6): `/pay/:id?token=svc_tk_…`, and `embed=1` when a merchant's
 * page frames it. A path that is not a pay link has no invoice id. */
export type PageParams = {
  invoiceId: string | null
  token: string | null
  embed: boolean
  locale: string | null
  theme: string | null
  layout: PageLayout
  /** The language the payer picked in the page's language switch. */
  lang: string | null
}

/** How much of the invoice the page shows: `full` (the share link's page, and a merchant's mount that
 * asks for it with `layout: 'full'`), or `compact`, a merchant's embed by default (`embed=1`): its
 * storefront already shows the order, so the payment comes first and the document one tap away. */
export type PageLayout = 'full' | 'compact'

/** The languages to show the page in, best first (docs/languages.md): the payer's pick in the
 * language switch (this link's, then the one remembered from an earlier page), the merchant's mount
 * option, then the reader's own languages. */
export function preferredLanguages(params: Pick<PageParams, 'locale' | 'lang'>, languages: readonly string[], remembered: string | null = null): readonly string[] {
  return [params.lang, remembered, params.locale, ...languages].filter((tag): tag is string => !!tag)
}

const languageTag = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/

/** The language the payer picked earlier, from its cookie (which the server sets when the payer uses
 * the switch, and reads: the client renders in the language the server chose): only a well-formed tag. */
export function rememberedLanguage(cookieHeader: string | undefined | null): string | null {
  const value = /(?:^|;\s*)svc_lang=([^;]*)/.exec(cookieHeader ?? '')?.[1]
  return value && languageTag.test(value) ? value : null
}

/** The share link's query with the payer's language in it, keeping everything else the page needs
 * (the token above all, and how a merchant's page framed it): the language switch's links. */
export function queryWithLanguage(params: Pick<PageParams, 'token' | 'embed' | 'theme' | 'locale'> & { layout?: PageLayout | undefined }, lang: string): string {
  const query = new URLSearchParams()
  if (params.token) query.set('token', params.token)
  if (params.embed) query.set('embed', '1')
  if (params.locale) query.set('locale', params.locale)
  if (params.theme) query.set('theme', params.theme)
  // only a layout other than the one the link would get without it: an embed's full, a share link's compact
  if (params.layout && params.layout !== (params.embed ? 'compact' : 'full')) query.set('layout', params.layout)
  query.set('lang', lang)
  return `?${query}`
}

export function pageParams(location: { pathname: string; search: string }): PageParams {
  const id = /^\/pay\/(0|[1-9]\d{0,77})\/?$/.exec(location.pathname)?.[1] ?? null
  const query = new URLSearchParams(location.search)
  const token = query.get('token')
  const locale = query.get('locale')
  const lang = query.get('lang')
  return {
    invoiceId: id,
    token: token?.startsWith('svc_tk_') ? token : null,
    embed: query.get('embed') === '1',
    // a merchant's mount options: the language it shows in, and its theme
    locale: locale && languageTag.test(locale) ? locale : null,
    theme: query.get('theme'),
    // an embed is compact unless its merchant asked for the full document; a share link full unless asked
    layout: query.get('layout') === 'compact' || (query.get('embed') === '1' && query.get('layout') !== 'full') ? 'compact' : 'full',
    lang: lang && languageTag.test(lang) ? lang : null,
  }
}
