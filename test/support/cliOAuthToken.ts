import { createHash, randomBytes } from 'node:crypto'
import { formBrowser } from './formBrowser'

export type CliSignInParameters = {
  /** The server whose authorization server (/oauth) grants the token. */
  serverUrl: string
  /** The person who signs in at the identity provider the server sends them to. */
  user: { email: string; password: string }
  /** The scopes ticked on the consent page. */
  approve: readonly string[]
  /** The scopes the CLI asks for, when it asks for more than the person ticks; `approve` unless given. */
  ask?: readonly string[]
  /** The consent form's fields the person types over, by name (max_invoice, invoices_per_day); the rest keep their preset values. */
  typed?: Readonly<Record<string, string>>
}

/** What the token endpoint answers `svc login`, with the client it registered: what a refresh sends back. */
export type CliTokens = { access_token: string; refresh_token?: string; client_id: string }

/**
 * A CLI's OAuth access token for the REST API (SPEC 5.3), obtained as `svc login` does and as a
 * person's browser goes: the client registers, asks with S256 PKCE for the API's resource, the
 * browser (fetch with its cookies) signs in at the identity provider and approves the scopes on the
 * consent page with its preselected studio and network, and the code is exchanged for the token.
 */
export async function cliOAuthToken(parameters: CliSignInParameters): Promise<string> {
  return (await cliOAuthTokens(parameters)).access_token
}

/** As cliOAuthToken, with the refresh token and the client a later refresh names. */
export async function cliOAuthTokens({ serverUrl, user, approve, ask = approve, typed = {} }: CliSignInParameters): Promise<CliTokens> {
  const redirectUri = 'http://127.0.0.1:9/cli-callback'
  const registration = await fetch(`${serverUrl}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'svc CLI', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  })
  if (registration.status !== 201) throw new Error(`registration answered ${registration.status}`)
  const { client_id } = (await registration.json()) as { client_id: string }
  const verifier = randomBytes(32).toString('base64url')
  const resource = `${serverUrl}/v1`
  const authorize = new URL(`${serverUrl}/oauth/auth`)
  authorize.search = new URLSearchParams({ client_id, redirect_uri: redirectUri, response_type: 'code', scope: ask.join(' '), resource, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', state: 'cli' }).toString()

  const { go, post } = formBrowser()

  let url = authorize.toString()
  let response = await go(url)
  let code: string | null = null
  for (let step = 0; step < 20 && code === null; step++) {
    const location = response.headers.get('location')
    if (location) {
      url = new URL(location, url).toString()
      if (url.startsWith(redirectUri)) {
        code = new URL(url).searchParams.get('code')
        if (!code) throw new Error(`the sign-in was refused: ${url}`)
        break
      }
      response = await go(url)
      continue
    }
    const page = await response.text()
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${page.slice(0, 300)}`)
    const action = new URL(/<form method="post" action="([^"]+)"/.exec(page)![1]!, url).toString()
    if (page.includes('name="password"')) response = await post(action, new URLSearchParams({ email: user.email, password: user.password }))
    else if (action.includes('/oauth/interaction/')) {
      // as a browser submits the consent form: the ticked scopes, each field's value and each list's chosen option
      const fields = [...page.matchAll(/<input id="[^"]+" name="([^"]+)"[^>]*value="([^"]*)">/g)].map(([, name, value]) => [name!, typed[name!] ?? value!])
      const chosen = [...page.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>.*?<option value="([^"]*)" selected>/g)].map(([, name, value]) => [name!, value!])
      response = await post(action, new URLSearchParams([...approve.map((scope) => ['scope', scope]), ...fields, ...chosen]))
    } else response = await post(action, new URLSearchParams())
  }
  if (code === null) throw new Error('the sign-in did not come back')
  const token = await fetch(`${serverUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id, resource }),
  })
  if (token.status !== 200) throw new Error(`the token request answered ${token.status}: ${await token.text()}`)
  return { ...((await token.json()) as { access_token: string; refresh_token?: string }), client_id }
}
