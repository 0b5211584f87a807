import { createHash, randomBytes } from 'node:crypto'

export type SignInParameters = {
  issuer: string
  clientId: string
  redirectUri: string
  email: string
  password: string
  /** The API's audience, sent as the resource indicator. */
  resource?: string
}

/** What the provider's redirects and forms answered, for a test to assert on. */
export type SignedIn = { accessToken: string; tokenType: string; expiresIn: number; scope: string }

/** The cookies one browser would keep, by name: the provider's sign-in is cookie-bound. */
class CookieJar {
  private readonly cookies = new Map<string, string>()
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim())
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

function formAction(html: string): string {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  if (!action) throw new Error(`no form on the page: ${html.slice(0, 300)}`)
  return action
}

/**
 * The authorization code flow with S256 PKCE, as a browser runs it against the devnet's identity
 * provider, with fetch: the authorization request, the login form, the consent form, the redirect
 * back with the code, and the token request. Throws when any step answers otherwise.
 */
export async function signInWithPassword({ issuer, clientId, redirectUri, email, password, resource }: SignInParameters): Promise<SignedIn> {
  const jar = new CookieJar()
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const state = randomBytes(12).toString('base64url')
  const authorize = new URL('/auth', issuer)
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email api',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...(resource ? { resource } : {}),
  }).toString()

  async function go(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(url, issuer), { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header() } })
    jar.take(response)
    return response
  }
  const post = (url: string, form: Record<string, string>) =>
    go(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() })

  let response = await go(authorize.toString())
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      if (location.startsWith(redirectUri)) {
        const back = new URL(location)
        if (back.searchParams.get('state') !== state) throw new Error('the redirect carries another state')
        const code = back.searchParams.get('code')
        if (!code) throw new Error(`no code: ${back.searchParams.get('error')} ${back.searchParams.get('error_description')}`)
        const token = await fetch(new URL('/token', issuer), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, ...(resource ? { resource } : {}) }),
        })
        const body = (await token.json()) as Record<string, unknown>
        if (!token.ok) throw new Error(`token request answered ${token.status}: ${JSON.stringify(body)}`)
        return { accessToken: String(body.access_token), tokenType: String(body.token_type), expiresIn: Number(body.expires_in), scope: String(body.scope) }
      }
      response = await go(location)
      continue
    }
    const page = await response.text()
    if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 300)}`)
    const action = formAction(page)
    response = action.endsWith('/login') ? await post(action, { email, password }) : await post(action, {})
  }
  throw new Error('the sign-in did not finish in ten steps')
}
