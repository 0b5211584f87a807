import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { writeCredentials, type StoredCredentials } from './credentialsFile'

/** Everything the CLI asks for; the person unticks what they do not want at consent. */
export const cliScopes = ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read'] as const

export class OAuthCommandError extends Error {
  override name = 'OAuthCommandError'
}

type Metadata = { authorization_endpoint: string; token_endpoint: string; registration_endpoint: string; revocation_endpoint?: string }

export async function authorizationServerOf(serverUrl: string): Promise<Metadata> {
  const answer = await fetch(new URL('/.well-known/oauth-authorization-server/oauth', serverUrl))
  if (!answer.ok) throw new OAuthCommandError(`${serverUrl} offers no sign-in (its authorization server metadata answered ${answer.status}): ask its operator to set OAUTH_IDENTITY_CLIENT_ID`)
  return (await answer.json()) as Metadata
}

/** Opens the URL in the default browser; where none can start (a server over SSH) the printed URL is enough. */
export function openInBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]]
  try {
    spawn(command, args as string[], { stdio: 'ignore', detached: true }).on('error', () => {}).unref()
  } catch {
    // headless: the URL is printed
  }
}

export type LoginParameters = {
  serverUrl: string
  credentialsPath: string
  /** Told the URL to open: prints it, and opens the browser unless headless. */
  showUrl: (url: string) => void
  now?: () => number
}

/**
 * `login` (SPEC 5.3): registers this CLI with the server's authorization server, waits on a loopback
 * redirect at 127.0.0.1 (RFC 8252) while the person signs in and approves the scopes in a browser,
 * then trades the code with its PKCE verifier for tokens bound to the API's audience (<server>/v1),
 * kept in the OS's config folder with mode 0600.
 */
export async function login({ serverUrl, credentialsPath, showUrl, now = Date.now }: LoginParameters): Promise<StoredCredentials> {
  const metadata = await authorizationServerOf(serverUrl)
  const loopback = createServer()
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', () => resolve()))
  try {
    const redirectUri = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/callback`
    const registration = await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'svc-checkout CLI', application_type: 'native', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
    })
    if (!registration.ok) throw new OAuthCommandError(`the server refused to register this CLI (${registration.status}): ${await registration.text()}`)
    const { client_id: clientId } = (await registration.json()) as { client_id: string }
    const verifier = randomBytes(32).toString('base64url')
    const state = randomBytes(16).toString('base64url')
    const resource = new URL('/v1', serverUrl).toString()
    const authorize = new URL(metadata.authorization_endpoint)
    authorize.search = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: cliScopes.join(' '), resource, state, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' }).toString()

    const code = await new Promise<string>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new OAuthCommandError('no sign-in came back within 10 minutes: run login again')), 600_000)
      loopback.on('request', (req, res) => {
        const back = new URL(req.url ?? '/', redirectUri)
        if (back.pathname !== '/callback') return void res.writeHead(404).end()
        const error = back.searchParams.get('error')
        const given = back.searchParams.get('code')
        const ok = !error && given && back.searchParams.get('state') === state
        res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8' }).end(ok ? 'Signed in: you can close this tab and return to the terminal.' : 'Sign-in refused: see the terminal.')
        clearTimeout(timeout)
        if (ok) resolve(given)
        else reject(new OAuthCommandError(error ? `sign-in refused: ${error} ${back.searchParams.get('error_description') ?? ''}`.trim() : 'the redirect carried another state: run login again'))
      })
      showUrl(authorize.toString())
    })
    const answer = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId, resource }),
    })
    const tokens = (await answer.json()) as { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string; error?: string; error_description?: string }
    if (!answer.ok || !tokens.access_token || !tokens.refresh_token) throw new OAuthCommandError(`the token request was refused: ${tokens.error ?? answer.status} ${tokens.error_description ?? ''}`.trim())
    const credentials = { serverUrl, clientId, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: now() + (tokens.expires_in ?? 900) * 1000, scope: tokens.scope ?? '' }
    await writeCredentials(credentialsPath, credentials)
    return credentials
  } finally {
    loopback.closeAllConnections()
    loopback.close()
  }
}
