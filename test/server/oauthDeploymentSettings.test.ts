import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, test } from 'vitest'
import { AgentOAuth } from '../support/agentOAuth'
import { formBrowser } from '../support/formBrowser'
import { agentRedirectUrl, useOAuthServer } from '../support/oauthServer'
import { startTcpProxy } from '../support/tcpProxy'

/** Not the default: a deployment whose provider is asked for one scope more. */
const identityScopes = 'openid email api profile'

let rpc: Awaited<ReturnType<typeof startTcpProxy>>
// the server reaches the chain through a proxy the tests can cut
const ctx = useOAuthServer({
  overrides: { IDENTITY_SCOPES: identityScopes },
  async beforeServer(devnet) {
    rpc = await startTcpProxy(devnet.anvil.port)
    return { RPC_URL: rpc.url, DASHBOARD_CLIENT_ID: 'svc-checkout-dashboard' }
  },
})
afterAll(async () => {
  await rpc?.stop()
})

describe("the sign-in at the deployment's identity provider", () => {
  test('asks the provider for the scopes the deployment names (IDENTITY_SCOPES), from an agent\'s sign-in through /oauth as from the dashboard\'s', async () => {
    const oauth = new AgentOAuth(agentRedirectUrl, 'Scope reader')
    await new Client({ name: 'scope-reader', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${ctx.server.url}/mcp`), { authProvider: oauth })).catch(() => undefined)
    // the browser's way from the authorization request to the provider's login form
    const { go } = formBrowser()
    let url = oauth.authorizationUrl!.toString()
    for (let step = 0; step < 10 && !url.startsWith(ctx.oauth.provider.issuer); step++) {
      const location = (await go(url)).headers.get('location')
      expect(location, `no redirect from ${url}`).toBeTruthy()
      url = new URL(location!, url).toString()
    }
    expect(url.startsWith(ctx.oauth.provider.issuer)).toBe(true)
    expect(new URL(url).searchParams.get('scope')).toBe(identityScopes)

    const dashboard = await (await fetch(`${ctx.server.url}/dashboard/config.json`)).json()
    expect(dashboard).toMatchObject({ clientId: 'svc-checkout-dashboard', scope: identityScopes })
  })
})

describe('GET /oauth/token-info', () => {
  test("answers who a token stands for, and the invoice token's symbol and decimals as the deployment names them, with the chain unreachable since before anything read the token from it (the consent page, which shows the largest invoice in the token, included)", async () => {
    await rpc.stop()
    try {
      // the agent asks for every scope, invoice:write too, so its consent shows the token's amounts
      const { oauth } = await ctx.connectAgent(['invoice:read'])
      const answer = await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })
      const body = await answer.json()
      expect(answer.status, JSON.stringify(body)).toBe(200)
      expect(body).toMatchObject({ studio: { id: ctx.oauth.studioId }, scopes: ['invoice:read'], invoice_token: { address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 } })
    } finally {
      await rpc.start()
    }
  })
})
