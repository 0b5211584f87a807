import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { afterAll, beforeAll, expect } from 'vitest'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, devnetApiAudience, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { AgentOAuth } from './agentOAuth'
import { formBrowser } from './formBrowser'
import { freePort } from './loopback'
import { useServer, type UseServerParameters } from './server'
import { workerSigningKey } from './identityKey'

/** Where the agents of these tests say the browser brings their code back; nothing listens there. */
export const agentRedirectUrl = 'http://127.0.0.1:9/mcp-client/callback'

/**
 * The companion server with its OAuth authorization server (SPEC 5.3, 5.4) in front of a real
 * identity provider on 127.0.0.1, the demo merchant signed in there once and owning a studio, and
 * the person's part of a sign-in driven as a browser drives it. `beforeServer` adds configuration
 * known once the devnet runs (a proxy in front of its node); `payPageDir` is the built page served.
 */
export function useOAuthServer({ now, overrides, beforeServer, payPageDir }: { now?: () => number; overrides?: Record<string, string> } & Pick<UseServerParameters, 'beforeServer' | 'payPageDir'> = {}) {
  const state = {} as { provider: RunningIdentityProvider; apiKey: { keyId: string; secret: string }; studioId: string }
  const ctx = useServer({
    ...(now ? { now } : {}),
    ...(overrides ? { overrides } : {}),
    ...(payPageDir ? { payPageDir } : {}),
    beforeServer: async (devnet) => {
      const more = beforeServer ? await beforeServer(devnet) : {}
      // the server's port is known before it starts: the identity provider registers its redirect URI
      const port = await freePort()
      state.provider = await startIdentityProvider({
        port: 0,
        audience: devnetApiAudience,
        users: [demoMerchantUser],
        clients: [{ clientId: 'svc-checkout-oauth', redirectUris: [`http://127.0.0.1:${port}/oauth/signed-in`] }],
        signingKey: await workerSigningKey(),
      })
      const discovery = (await (await fetch(`${state.provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
      return { ...more, JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, OAUTH_IDENTITY_CLIENT_ID: 'svc-checkout-oauth', PORT: String(port) }
    },
  })
  afterAll(async () => {
    await state.provider?.close()
  })
  beforeAll(async () => {
    const seeded = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
    state.apiKey = seeded.apiKey
    state.studioId = seeded.studioId
    await seedMerchantLogin(ctx.server.stores, state.provider.issuer, seeded.studioId)
  })

  /** The browser's way from the authorization request to the client's redirect, which it returns:
   * one cookie jar, redirects followed by hand, the forms filled in as a person would. */
  async function browseToRedirect(authorizationUrl: URL, approve: readonly string[], isBack: (url: string) => boolean, limits: Record<string, string> = {}): Promise<string> {
    const { go, post } = formBrowser()
    let url = authorizationUrl.toString()
    let response = await go(url)
    for (let step = 0; step < 20; step++) {
      const location = response.headers.get('location')
      if (location) {
        url = new URL(location, url).toString()
        if (isBack(url)) {
          if (!new URL(url).searchParams.get('code')) throw new Error(`refused: ${url}`)
          return url
        }
        response = await go(url)
        continue
      }
      const page = await response.text()
      // a refusal reads in the failure as the person reads it: the page without its style
      expect(response.status, page.replace(/<style>.*?<\/style>/s, '').slice(0, 800)).toBe(200)
      const action = new URL(/<form method="post" action="([^"]+)"/.exec(page)![1]!, url).toString()
      if (page.includes('name="password"')) response = await post(action, new URLSearchParams({ email: demoMerchantUser.email, password: demoMerchantUser.password }))
      else if (action.includes('/oauth/interaction/')) {
        // the consent names where the answer goes, the one thing a registered client cannot fake
        expect(page).toMatch(/you go back to <code>http:\/\/127\.0\.0\.1:\d+<\/code>/)
        // as a browser submits it: the ticked boxes, and each field's value unless the person typed another
        const fields = [...page.matchAll(/<input id="[^"]+" name="([^"]+)"[^>]*value="([^"]*)">/g)].map(([, name, value]) => [name!, limits[name!] ?? value!])
        // and each list's chosen option: the studio and the network the grant is bound to (SPEC 5.4)
        const chosen = [...page.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>.*?<option value="([^"]*)" selected>/g)].map(([, name, value]) => [name!, limits[name!] ?? value!])
        expect(chosen.map(([name]) => name)).toEqual(['studio_id', 'chain_id'])
        fields.push(...chosen)
        response = await post(action, new URLSearchParams([...approve.map((scope) => ['scope', scope]), ...fields]))
      } else response = await post(action, new URLSearchParams())
    }
    throw new Error('the sign-in did not come back')
  }

  async function signInAndConsent(authorizationUrl: URL, approve: readonly string[], redirectTo = agentRedirectUrl, limits: Record<string, string> = {}): Promise<string> {
    return new URL(await browseToRedirect(authorizationUrl, approve, (url) => url.startsWith(redirectTo), limits)).searchParams.get('code') ?? 'no code'
  }

  /** Discovery from the 401, registration and PKCE by the SDK's own client; the person's part by fetch. */
  async function connectAgent(approve: readonly string[], limits: Record<string, string> = {}) {
    const oauth = new AgentOAuth(agentRedirectUrl, 'Test agent')
    const endpoint = new URL(`${ctx.server.url}/mcp`)
    const first = new Client({ name: 'test-agent', version: '1.0.0' })
    const refusal = await first.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth })).catch((error: unknown) => error)
    expect(refusal, String(refusal)).toBeInstanceOf(UnauthorizedError)
    expect(oauth.information?.client_id).toBeTruthy()
    expect(oauth.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256')
    const code = await signInAndConsent(oauth.authorizationUrl!, approve, agentRedirectUrl, limits)
    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth })
    await transport.finishAuth(code)
    const client = new Client({ name: 'test-agent', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }))
    return { client, oauth }
  }

  return Object.assign(ctx, {
    /** The identity provider, the seeded API key and the studio: known once the file's setup ran. */
    oauth: state,
    browseToRedirect,
    signInAndConsent,
    connectAgent,
  })
}
