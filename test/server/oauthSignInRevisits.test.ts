import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import { demoMerchantUser } from '../../devnet/seedMerchantLogin'
import { AgentOAuth } from '../support/agentOAuth'
import { formBrowser } from '../support/formBrowser'
import { agentRedirectUrl, useOAuthServer } from '../support/oauthServer'

const ctx = useOAuthServer()

describe("a sign-in's interaction page, counted under the steps' general limit", () => {
  test('visited again and again keeps one way out to the identity provider, the latest, with which the person still reaches the consent', async () => {
    const oauth = new AgentOAuth(agentRedirectUrl, 'Revisiting agent')
    await new Client({ name: 'revisiting-agent', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${ctx.server.url}/mcp`), { authProvider: oauth })).catch(() => undefined)
    const { go, post } = formBrowser()
    // the one door: the authorization request, answered with the interaction page's address
    const interaction = new URL((await go(oauth.authorizationUrl!.toString())).headers.get('location')!, ctx.server.url).toString()
    expect(interaction).toMatch(/\/oauth\/interaction\/[A-Za-z0-9_-]+$/)
    const uid = interaction.split('/').pop()!

    const waysOut: string[] = []
    for (let visit = 0; visit < 12; visit++) {
      const answer = await go(interaction)
      expect(answer.status).toBe(303)
      waysOut.push(answer.headers.get('location')!)
    }
    expect(waysOut.every((url) => url.startsWith(ctx.oauth.provider.issuer))).toBe(true)
    const [{ pending }] = (await ctx.server.stores.db.query<{ pending: number }>(`SELECT count(*)::int AS pending FROM oauth_payloads WHERE model = 'FederatedSignIn' AND uid = $1`, [uid])) as [{ pending: number }]
    expect(pending).toBe(1)

    // the latest way out signs the person in at the provider and back to this sign-in's consent
    let url = waysOut.at(-1)!
    let response = await go(url)
    for (let step = 0; step < 16; step++) {
      const location = response.headers.get('location')
      if (location) {
        url = new URL(location, url).toString()
        response = await go(url)
      } else if (response.status === 200 && url.startsWith(ctx.oauth.provider.issuer)) {
        // the provider's own pages: its login form, then its consent
        const page = await response.text()
        const action = new URL(/<form method="post" action="([^"]+)"/.exec(page)![1]!, url).toString()
        response = await post(action, page.includes('name="password"') ? new URLSearchParams({ email: demoMerchantUser.email, password: demoMerchantUser.password }) : new URLSearchParams())
      } else break
    }
    expect(url).toContain('/oauth/interaction/')
    expect(response.status).toBe(200)
    const consent = await response.text()
    expect(consent).toContain('<title>Allow access to your studio</title>')
    expect(consent).toContain(`<form method="post" action="/oauth/interaction/${new URL(url).pathname.split('/').pop()}/confirm?lang=en">`)
  })
})
