import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import { demoMerchantUser } from '../../devnet/seedMerchantLogin'
import { AgentOAuth } from '../support/agentOAuth'
import { formBrowser } from '../support/formBrowser'
import { agentRedirectUrl, useOAuthServer } from '../support/oauthServer'

const ctx = useOAuthServer()

/** An agent's authorization request, asked through the one door, and the browser that follows it. */
async function startSignIn(name: string) {
  const oauth = new AgentOAuth(agentRedirectUrl, name)
  await new Client({ name: 'revisiting-agent', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${ctx.server.url}/mcp`), { authProvider: oauth })).catch(() => undefined)
  const browser = formBrowser()
  const interaction = new URL((await browser.go(oauth.authorizationUrl!.toString())).headers.get('location')!, ctx.server.url).toString()
  expect(interaction).toMatch(/\/oauth\/interaction\/[A-Za-z0-9_-]+$/)
  return { ...browser, interaction }
}

/** From a way out to the identity provider, signed in there as the demo merchant, to this server's
 * consent page (its address and its markup). */
async function signInToConsent({ go, post }: ReturnType<typeof formBrowser>, wayOut: string): Promise<{ url: string; page: string }> {
  let url = wayOut
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
  expect(response.status).toBe(200)
  return { url, page: await response.text() }
}

const rowsOf = async (model: string, where = '', values: unknown[] = []) =>
  ((await ctx.server.stores.db.query<{ rows: number }>(`SELECT count(*)::int AS rows FROM oauth_payloads WHERE model = $1 ${where}`, [model, ...values])) as [{ rows: number }])[0].rows

describe("a sign-in's pages, counted under the steps' general limit rather than the doors' tenth", () => {
  test('the interaction page visited again and again keeps one way out to the identity provider, the latest, with which the person still reaches the consent', async () => {
    const browser = await startSignIn('Revisiting agent')
    const uid = browser.interaction.split('/').pop()!
    const waysOut: string[] = []
    for (let visit = 0; visit < 12; visit++) {
      const answer = await browser.go(browser.interaction)
      expect(answer.status).toBe(303)
      waysOut.push(answer.headers.get('location')!)
    }
    expect(waysOut.every((url) => url.startsWith(ctx.oauth.provider.issuer))).toBe(true)
    expect(await rowsOf('FederatedSignIn', 'AND uid = $2', [uid])).toBe(1)

    const consent = await signInToConsent(browser, waysOut.at(-1)!)
    expect(consent.url).toContain('/oauth/interaction/')
    expect(consent.page).toContain('<title>Allow access to your studio</title>')
    expect(consent.page).toContain(`<form method="post" action="/oauth/interaction/${new URL(consent.url).pathname.split('/').pop()}/confirm?lang=en">`)
  })

  test("the consent's Allow sent again and again saves one grant for the studio, and the agent is still sent back with its code", async () => {
    const browser = await startSignIn('Double-clicking agent')
    const consent = await signInToConsent(browser, (await browser.go(browser.interaction)).headers.get('location')!)
    const action = new URL(/<form method="post" action="([^"]+\/confirm[^"]*)"/.exec(consent.page)![1]!, consent.url).toString()
    const chosen = [...consent.page.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>.*?<option value="([^"]*)" selected>/g)].map(([, name, value]) => [name!, value!])
    const form = new URLSearchParams([['scope', 'invoice:read'], ...chosen])
    const [grantsBefore, studioGrantsBefore] = [await rowsOf('Grant'), await rowsOf('GrantStudio')]

    let resume = ''
    for (let click = 0; click < 5; click++) {
      const answer = await browser.post(action, form)
      expect(answer.status).toBe(303)
      resume = answer.headers.get('location')!
    }
    expect(await rowsOf('Grant')).toBe(grantsBefore + 1)
    expect(await rowsOf('GrantStudio')).toBe(studioGrantsBefore + 1)

    let url = new URL(resume, action).toString()
    for (let step = 0; step < 6 && !url.startsWith(agentRedirectUrl); step++) url = new URL((await browser.go(url)).headers.get('location')!, url).toString()
    expect(new URL(url).searchParams.get('code')).toBeTruthy()
  })
})
