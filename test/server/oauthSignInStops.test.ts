import { createHash, randomBytes } from 'node:crypto'
import { Window } from 'happy-dom'
import { beforeAll, describe, expect, test } from 'vitest'
import { formBrowser } from '../support/formBrowser'
import { agentRedirectUrl, useOAuthServer } from '../support/oauthServer'

const ctx = useOAuthServer()

/** What a person reads on one of the authorization server's pages, as a browser builds it. */
function read(html: string) {
  const { document } = new Window()
  document.write(html)
  return {
    lang: document.documentElement.getAttribute('lang'),
    dir: document.documentElement.getAttribute('dir'),
    heading: document.querySelector('h1')?.textContent,
    message: document.querySelector('main > p')?.textContent,
    detailLabel: document.querySelector('main details summary')?.textContent ?? null,
    detail: document.querySelector('main details code')?.textContent ?? null,
    elements: document.querySelectorAll('main img, main script').length,
  }
}

/** An agent's client, registered as an agent registers it (RFC 7591). */
let clientId: string
beforeAll(async () => {
  const registered = await fetch(`${ctx.server.url}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Stops agent', redirect_uris: [agentRedirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
  })
  expect(registered.status).toBe(201)
  clientId = ((await registered.json()) as { client_id: string }).client_id
})

/** The agent's authorization request, as the browser it opens sends it. */
function authorizationUrl(extra: Record<string, string> = {}) {
  const url = new URL(`${ctx.server.url}/oauth/auth`)
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: agentRedirectUrl,
    response_type: 'code',
    scope: 'invoice:read',
    resource: `${ctx.server.url}/mcp`,
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    ...extra,
  }).toString()
  return url.toString()
}

describe("the authorization server's pages before consent, in the person's language", () => {
  test('a German browser that opens a sign-in the server no longer holds reads German, and what the software said stays beside as a technical detail', async () => {
    // the sign-in is started in one browser: the server sends it on to its interaction
    const started = await formBrowser().go(authorizationUrl())
    expect(started.status).toBe(303)
    const interaction = new URL(started.headers.get('location')!, ctx.server.url).toString()
    expect(interaction).toMatch(/\/oauth\/interaction\//)

    // the link opened in another browser, a German one: the sign-in's cookie is not there
    const elsewhere = await formBrowser().go(interaction, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.headers.get('content-type')).toMatch(/^text\/html/)
    expect(read(await elsewhere.text())).toEqual({
      lang: 'de',
      dir: 'ltr',
      heading: 'Anmeldung abgelaufen',
      message: 'Diese Anmeldung ist nicht mehr gültig: Beginnen Sie erneut.',
      detailLabel: 'Technische Angabe',
      detail: 'SessionNotFound',
      elements: 0,
    })

    // the identity provider's way back with a state this server never gave (or whose ten minutes passed)
    const stale = await formBrowser().go(`${ctx.server.url}/oauth/signed-in?state=${randomBytes(16).toString('base64url')}&code=spent`, { headers: { 'accept-language': 'de' } })
    expect(stale.status).toBe(400)
    expect(read(await stale.text())).toMatchObject({ lang: 'de', heading: 'Anmeldung abgelaufen', message: 'Diese Anmeldung ist nicht mehr gültig: Beginnen Sie erneut.', detail: null })

    // a browser with no language the product speaks reads English
    const english = await formBrowser().go(`${ctx.server.url}/oauth/signed-in`, { headers: { 'accept-language': 'sw' } })
    expect(read(await english.text())).toMatchObject({ lang: 'en', heading: 'Sign-in expired', message: 'This sign-in is no longer current: start again.' })
  })

  test("a request the provider itself refuses reads in the browser's language, Arabic right to left, with the provider's error code and words as text", async () => {
    const unknownClient = await formBrowser().go(authorizationUrl({ client_id: 'no-such-client' }), { headers: { 'accept-language': 'ar-EG,ar;q=0.9' } })
    expect(unknownClient.status).toBe(400)
    const page = read(await unknownClient.text())
    expect(page).toMatchObject({
      lang: 'ar',
      dir: 'rtl',
      heading: 'خطأ في تسجيل الدخول',
      message: 'لا يمكن متابعة تسجيل الدخول هذا: ابدأ من جديد من التطبيق الذي أرسلك إلى هنا.',
      detailLabel: 'تفاصيل تقنية',
      elements: 0,
    })
    // the provider's own code, as the software writes it: what a support desk or a search knows it by
    expect(page.detail).toMatch(/^invalid_client: /)

    // the app's ui_locales, where the provider has read the request's parameters, before the browser's
    const wrongRedirect = await formBrowser().go(authorizationUrl({ redirect_uri: 'http://127.0.0.1:9/<b>elsewhere</b>', ui_locales: 'ja' }), { headers: { 'accept-language': 'en' } })
    expect(wrongRedirect.status).toBe(400)
    const japanese = read(await wrongRedirect.text())
    expect(japanese).toMatchObject({ lang: 'ja', dir: 'ltr', heading: 'サインインエラー', detailLabel: '技術的な詳細', elements: 0 })
    expect(japanese.detail).toMatch(/^invalid_redirect_uri: /)
  })
})
