/**
 * The authorization code flow with S256 PKCE (RFC 7636) for a public client in the browser: the
 * verifier and state live in sessionStorage for the one round trip to the provider, the access
 * token in sessionStorage for this tab only. No cookie is involved on the API, so no request to it
 * can be forged from another site.
 */

export type SignInSettings = { issuer: string; clientId: string; audience: string; scope: string; redirectUri: string }

const pendingKey = 'svc-dashboard-pending-sign-in'
const tokenKey = 'svc-dashboard-token'

type Discovery = { authorization_endpoint: string; token_endpoint: string }

async function discover(issuer: string): Promise<Discovery> {
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
  if (!response.ok) throw new Error(`the identity provider answered ${response.status}`)
  return (await response.json()) as Discovery
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
const randomText = () => base64url(crypto.getRandomValues(new Uint8Array(32)))

/** Leaves the page for the provider's login form. */
export async function startSignIn(settings: SignInSettings): Promise<void> {
  const { authorization_endpoint } = await discover(settings.issuer)
  const verifier = randomText()
  const state = randomText()
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
  sessionStorage.setItem(pendingKey, JSON.stringify({ verifier, state }))
  const url = new URL(authorization_endpoint)
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: settings.redirectUri,
    response_type: 'code',
    scope: settings.scope,
    resource: settings.audience,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
  }).toString()
  location.assign(url.toString())
}

/**
 * On the way back from the provider: trades the code for an access token, once, and takes the code
 * out of the address bar. Null when this load is not a return from the provider.
 */
export async function finishSignIn(settings: SignInSettings, here: URL): Promise<string | null> {
  const code = here.searchParams.get('code')
  const returned = here.searchParams.has('state') || here.searchParams.has('error')
  if (!returned) return null
  history.replaceState(null, '', here.pathname)
  const pending = JSON.parse(sessionStorage.getItem(pendingKey) ?? 'null') as { verifier: string; state: string } | null
  sessionStorage.removeItem(pendingKey)
  // a code we did not ask for in this tab (another site's redirect) is never redeemed
  if (!code || !pending || here.searchParams.get('state') !== pending.state) throw new Error('sign-in not finished')
  const { token_endpoint } = await discover(settings.issuer)
  const response = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: settings.redirectUri, client_id: settings.clientId, code_verifier: pending.verifier, resource: settings.audience }),
  })
  const body = (await response.json()) as { access_token?: string }
  if (!response.ok || !body.access_token) throw new Error('token refused')
  sessionStorage.setItem(tokenKey, body.access_token)
  return body.access_token
}

export const keptToken = () => sessionStorage.getItem(tokenKey)
export const forgetToken = () => sessionStorage.removeItem(tokenKey)
