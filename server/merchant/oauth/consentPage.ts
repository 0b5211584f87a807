import { languageCodes, languageNames, textDirection, type Language } from '../../../src/ui/languages'
import { escapeHtml as escape } from '../../http/escapeHtml'
import { consentCatalogs, type ConsentStrings } from './consentStrings'
import { defaultLimitAmount, type LimitToken } from './invoiceLimitAmount'
import { oauthPageStyle } from './oauthPageStyle'

/** The authorization server's own pages: plain HTML forms a person, a test with fetch or a screen
 * reader can use; no script, no third-party resources; in the dashboard's look and the person's
 * language (server/merchant/oauth/consentStrings.ts). */

/** The switch between the 16 languages: links to this same page, each language named in itself,
 * folded under the current one (as the pay page's switch is) so they do not push the form down. */
const languageSwitch = (t: ConsentStrings) =>
  `<nav class="languages" aria-label="${escape(t.language)}"><details><summary>${escape(t.language)}: ${escape(languageNames[t.lang])}</summary><ul>` +
  languageCodes.map((code) => `<li><a href="?lang=${code}" lang="${code}" hreflang="${code}"${code === t.lang ? ' aria-current="true"' : ''}>${escape(languageNames[code])}</a></li>`).join('') +
  '</ul></details></nav>'

export const oauthPage = (title: string, body: string, { language = 'en', withSwitch = false }: { language?: Language; withSwitch?: boolean } = {}) =>
  `<!doctype html><html lang="${language}" dir="${textDirection(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>` +
  `<style>${oauthPageStyle}</style>` +
  `</head><body><header class="bar"><p class="brand">svc-checkout</p>${withSwitch ? languageSwitch(consentCatalogs[language]) : ''}</header><main><h1>${escape(title)}</h1>${body}</main></body></html>`

/** A page that says why the form could not be taken, and what to do, in the person's language. */
export const oauthRefusalPage = (title: string, message: string, language: Language) => oauthPage(title, `<p>${escape(message)}</p>`, { language })

/** The stops of a sign-in (consentStrings' signIn), each a page of its own. */
export type SignInStop = Exclude<keyof ConsentStrings['signIn'], 'detail'>

/**
 * A sign-in that cannot go on, in the person's language: what happened and what to do. What the
 * software said of it (the provider's error code and words, an exception's name) follows, folded, as
 * a technical detail: in its own English, since that is what a search or a support desk knows it by,
 * and as text, since the provider's words can carry what the request sent.
 */
export function oauthSignInStopPage(stop: SignInStop, language: Language, detail?: string): string {
  const t = consentCatalogs[language].signIn
  const { title, message } = t[stop]
  const technical = detail ? `<details class="hint"><summary>${escape(t.detail)}</summary><p><code lang="en">${escape(detail)}</code></p></details>` : ''
  return oauthPage(title, `<p>${escape(message)}</p>${technical}`, { language })
}

/** Writes are never ticked in advance: a person opts into them (SPEC 5.4). */
const isWrite = (scope: string) => scope.endsWith(':write')

/** SPEC 5.4: invoice writes need limits set at consent; these hold only if invoice:write is ticked.
 * The largest invoice is an amount of the token as the merchant writes one (1000 USDC), its symbol
 * beside the field, never base units. */
export const defaultInvoiceLimits = { maxInvoice: defaultLimitAmount, perDay: 20 }
const limitFields = (t: ConsentStrings, token: LimitToken) =>
  `<fieldset><legend>${escape(t.limitsLegend)}</legend><p class="hint" id="limits-hint">${escape(t.limitsIntro)}</p>` +
  `<label for="max_invoice">${escape(t.maxInvoice(token.symbol))}</label><div class="amount"><input id="max_invoice" name="max_invoice" aria-describedby="limits-hint" inputmode="decimal" autocomplete="off" required value="${defaultInvoiceLimits.maxInvoice}"><span aria-hidden="true">${escape(token.symbol)}</span></div>` +
  `<label for="invoices_per_day">${escape(t.perDay)}</label><input id="invoices_per_day" name="invoices_per_day" aria-describedby="limits-hint" inputmode="numeric" required value="${defaultInvoiceLimits.perDay}">` +
  '</fieldset>'

/** SPEC 5.4: the person picks the studio (of theirs) and the network the grant is bound to. */
const choice = (name: string, legend: string, options: readonly { value: string; label: string }[]) =>
  `<label for="${name}">${escape(legend)}</label><select id="${name}" name="${name}" required>` +
  options.map((option, i) => `<option value="${escape(option.value)}"${i === 0 ? ' selected' : ''}>${escape(option.label)}</option>`).join('') +
  '</select>'

export function renderOAuthConsent({ uid, clientName, returnsTo, studios, networks, resource, scopes, language = 'en', token }: { uid: string; clientName: string; returnsTo: string; studios: readonly { id: string; name: string }[]; networks: readonly { chainId: number; name: string }[]; resource: string; scopes: readonly string[]; language?: Language; token?: LimitToken }): string {
  const t = consentCatalogs[language]
  const studioName = studios.length === 1 ? studios[0]!.name : t.yourStudio
  const boxes = scopes
    .map((scope) => `<label><input type="checkbox" name="scope" value="${escape(scope)}"${isWrite(scope) ? '' : ' checked'}> ${escape(t.scopes[scope] ?? scope)} <code>${escape(scope)}</code></label>`)
    .join('')
  return oauthPage(
    t.title,
    `<p>${t.asks(`<strong>${escape(clientName)}</strong>`, `<strong>${escape(studioName)}</strong>`, `<code>${escape(resource)}</code>`)}</p>` +
      // anyone may register a client under any name: where it sends you back is what identifies it
      `<p>${t.returnsTo(`<code>${escape(returnsTo)}</code>`)}</p>` +
      // the language rides along, so a refusal of what was sent reads in it too
      `<form method="post" action="/oauth/interaction/${escape(uid)}/confirm?lang=${t.lang}">` +
      `<fieldset><legend>${escape(t.whereLegend)}</legend>${choice('studio_id', t.studio, studios.map((studio) => ({ value: studio.id, label: studio.name })))}` +
      (networks.length > 0 ? choice('chain_id', t.network, networks.map((network) => ({ value: String(network.chainId), label: network.name.includes(String(network.chainId)) ? network.name : t.chain(network.name, String(network.chainId)) }))) : '') +
      '</fieldset>' +
      `<fieldset><legend>${escape(t.whatLegend)}</legend>${scopes.some(isWrite) ? `<p class="hint">${escape(t.writesUnticked)}</p>` : ''}${boxes}</fieldset>` +
      (scopes.includes('invoice:write') && token ? limitFields(t, token) : '') +
      `<button type="submit">${escape(t.allow)}</button></form>` +
      `<form method="post" action="/oauth/interaction/${escape(uid)}/deny"><button type="submit" class="secondary">${escape(t.deny)}</button></form>`,
    { language, withSwitch: true },
  )
}
