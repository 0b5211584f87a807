import { deleteCredentials, readCredentials, writeCredentials, type StoredCredentials } from './credentialsFile'
import { authorizationServerOf, OAuthCommandError } from './oauthLogin'

/** A minute's margin: a token about to expire is refreshed before it is sent, not after a 401. */
const marginMs = 60_000

/**
 * The stored tokens, refreshed silently when the access token has (nearly) expired. Refresh tokens
 * rotate (SPEC 5.3): the new pair replaces the old at once, since the old one, used again, would
 * revoke the grant.
 */
export async function currentCredentials(credentialsPath: string, now: () => number = Date.now): Promise<StoredCredentials> {
  const stored = await readCredentials(credentialsPath)
  if (!stored) throw new OAuthCommandError('not signed in: run login first')
  if (stored.expiresAt - marginMs > now()) return stored
  const { token_endpoint } = await authorizationServerOf(stored.serverUrl)
  const answer = await fetch(token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stored.refreshToken, client_id: stored.clientId }),
  })
  const tokens = (await answer.json()) as { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string }
  if (!answer.ok || !tokens.access_token || !tokens.refresh_token) {
    await deleteCredentials(credentialsPath)
    throw new OAuthCommandError('the sign-in has ended (expired or revoked): run login again')
  }
  const refreshed = { ...stored, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: now() + (tokens.expires_in ?? 900) * 1000, scope: tokens.scope ?? stored.scope }
  await writeCredentials(credentialsPath, refreshed)
  return refreshed
}

/** `logout`: the grant is revoked at the server (its refresh token), then the file is deleted. */
export async function logout(credentialsPath: string): Promise<boolean> {
  const stored = await readCredentials(credentialsPath)
  if (!stored) return false
  const { revocation_endpoint } = await authorizationServerOf(stored.serverUrl)
  if (revocation_endpoint) {
    await fetch(revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: stored.refreshToken, token_type_hint: 'refresh_token', client_id: stored.clientId }),
    }).catch(() => undefined)
  }
  await deleteCredentials(credentialsPath)
  return true
}

/** What the server says a token stands for (GET /oauth/token-info). */
export type TokenInfo = {
  user: { id: string; email: string | null }
  studio: { id: string; name: string | null }
  network: { chain_id: number; name: string } | null
  client: { id: string; name: string }
  scopes: string[]
  /** `max_invoice` in base units, `max_invoice_display` as the person typed it at consent ("20 USDC"). */
  limits: { max_invoice: string; max_invoice_display?: string; invoices_per_day: number } | null
  /** The token invoices are issued in: amounts typed in it are turned into base units with its decimals.
   * Null while the server can say it neither from its deployment nor from its chain. */
  invoice_token: { address: string; symbol: string; decimals: number } | null
  expires_at: string
}

/** `whoami`: who the sign-in acts as, where and with what, asked of the server with the token
 * (refreshed first if it has expired, so the expiry shown is the current token's). */
export async function whoami(credentialsPath: string, now: () => number = Date.now, { json = false }: { json?: boolean } = {}): Promise<string[]> {
  const credentials = await currentCredentials(credentialsPath, now)
  const answer = await fetch(new URL('/oauth/token-info', credentials.serverUrl), { headers: { authorization: `Bearer ${credentials.accessToken}`, accept: 'application/json' } })
  const body = (await answer.json().catch(() => null)) as (TokenInfo & { code?: string; message?: string }) | null
  if (!answer.ok || !body?.studio) throw new OAuthCommandError(`${answer.status} ${body?.code ?? 'ERROR'}: ${body?.message ?? 'refused'}\n  what to do: sign in again: npm run merchant -- login`)
  if (json) return [JSON.stringify({ server: credentials.serverUrl, ...body }, null, 2)]
  return [
    `user     ${body.user.email ?? body.user.id}`,
    `studio   ${body.studio.name ?? '(unnamed)'} (${body.studio.id}) on ${credentials.serverUrl}`,
    `network  ${body.network ? `${body.network.name} (chain ${body.network.chain_id})` : 'not chosen (signed in before networks were asked)'}`,
    `scopes   ${body.scopes.join(' ') || 'none'}`,
    ...(body.limits ? [`limits   invoices up to ${body.limits.max_invoice_display ?? `${body.limits.max_invoice} base units`}, ${body.limits.invoices_per_day} a day`] : []),
    `expires  ${body.expires_at} (this access token; refreshed silently until the sign-in ends or is revoked)`,
  ]
}
