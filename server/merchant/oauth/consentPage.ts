/** The authorization server's own pages: plain HTML forms a person, a test with fetch or a screen
 * reader can use; no script, no third-party resources. */

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

export const oauthPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>` +
  '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.25rem 0}button{display:block;width:100%;margin:1rem 0;padding:.5rem;font:inherit}</style>' +
  `</head><body><main><h1>${escape(title)}</h1>${body}</main></body></html>`

const describedScopes: Record<string, string> = {
  'invoice:read': 'Read your invoices and their share links',
  'invoice:write': 'Issue and cancel invoices, and email them to your customers',
  'customer:read': 'Read your customers',
  'customer:write': 'Create and change customers',
  'dashboard:read': "Read your studio's balance and statistics",
}

/** Writes are never ticked in advance: a person opts into them (SPEC 5.4). */
const isWrite = (scope: string) => scope.endsWith(':write')

/** SPEC 5.4: invoice writes need limits set at consent; these hold only if invoice:write is ticked. */
export const defaultInvoiceLimits = { maxInvoice: '1000000000', perDay: 20 }
const limitFields =
  '<fieldset><legend>Limits on the invoices it issues</legend>' +
  `<label for="max_invoice">Largest invoice, in the token's smallest unit (1000000 is 1 USDC)</label><input id="max_invoice" name="max_invoice" inputmode="numeric" required value="${defaultInvoiceLimits.maxInvoice}">` +
  `<label for="invoices_per_day">Invoices in any 24 hours</label><input id="invoices_per_day" name="invoices_per_day" inputmode="numeric" required value="${defaultInvoiceLimits.perDay}">` +
  '</fieldset>'

/** SPEC 5.4: the person picks the studio (of theirs) and the network the grant is bound to. */
const choice = (name: string, legend: string, options: readonly { value: string; label: string }[]) =>
  `<label for="${name}">${escape(legend)}</label><select id="${name}" name="${name}" required>` +
  options.map((option, i) => `<option value="${escape(option.value)}"${i === 0 ? ' selected' : ''}>${escape(option.label)}</option>`).join('') +
  '</select>'

export function renderOAuthConsent({ uid, clientName, returnsTo, studios, networks, resource, scopes }: { uid: string; clientName: string; returnsTo: string; studios: readonly { id: string; name: string }[]; networks: readonly { chainId: number; name: string }[]; resource: string; scopes: readonly string[] }): string {
  const studioName = studios.length === 1 ? studios[0]!.name : 'your studio'
  const boxes = scopes
    .map((scope) => `<label><input type="checkbox" name="scope" value="${escape(scope)}"${isWrite(scope) ? '' : ' checked'}> ${escape(describedScopes[scope] ?? scope)} <code>${escape(scope)}</code></label>`)
    .join('')
  return oauthPage(
    'Allow access to your studio',
    `<p><strong>${escape(clientName)}</strong> asks to act for you on <strong>${escape(studioName)}</strong> through ${escape(resource)}.</p>` +
      // anyone may register a client under any name: where it sends you back is what identifies it
      `<p>After you answer, you go back to <code>${escape(returnsTo)}</code>. Allow only if you started this from there.</p>` +
      `<form method="post" action="/oauth/interaction/${escape(uid)}/confirm">` +
      `<fieldset><legend>Where it may act</legend>${choice('studio_id', 'Studio', studios.map((studio) => ({ value: studio.id, label: studio.name })))}` +
      (networks.length > 0 ? choice('chain_id', 'Network', networks.map((network) => ({ value: String(network.chainId), label: network.name.includes(String(network.chainId)) ? network.name : `${network.name} (chain ${network.chainId})` }))) : '') +
      '</fieldset>' +
      `<fieldset><legend>What it may do</legend>${boxes}</fieldset>` +
      (scopes.includes('invoice:write') ? limitFields : '') +
      '<button type="submit">Allow</button></form>' +
      `<form method="post" action="/oauth/interaction/${escape(uid)}/deny"><button type="submit">Deny</button></form>`,
  )
}
