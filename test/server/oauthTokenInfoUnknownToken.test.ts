import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, test } from 'vitest'
import { MerchantCommandError, runMerchantCommand } from '../../cli/merchantCommand'
import { AgentOAuth } from '../support/agentOAuth'
import { agentRedirectUrl, useOAuthServer } from '../support/oauthServer'
import { startTcpProxy } from '../support/tcpProxy'

// a server with no built page, so no deployment file names its token: only the chain can
const unbuilt = mkdtempSync(join(tmpdir(), 'svc-unbuilt-page-'))
let rpc: Awaited<ReturnType<typeof startTcpProxy>>
const ctx = useOAuthServer({
  payPageDir: unbuilt,
  async beforeServer(devnet) {
    rpc = await startTcpProxy(devnet.anvil.port)
    return { RPC_URL: rpc.url }
  },
})
afterAll(async () => {
  await rpc?.stop()
  rmSync(unbuilt, { recursive: true, force: true })
})

/** An agent signs in for invoice:read alone: a consent that shows no amount, so it reads nothing of the token. */
async function readOnlySignIn(): Promise<string> {
  const oauth = new AgentOAuth(agentRedirectUrl, 'Reads only')
  const endpoint = new URL(`${ctx.server.url}/mcp`)
  await new Client({ name: 'reads-only', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth })).catch(() => undefined)
  const asked = new URL(oauth.authorizationUrl!)
  asked.searchParams.set('scope', 'invoice:read')
  const code = await ctx.signInAndConsent(asked, ['invoice:read'])
  await new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }).finishAuth(code)
  return oauth.saved!.access_token
}

describe('GET /oauth/token-info', () => {
  test("with the token named by no deployment and the chain unreachable before it was ever read, still answers who the token stands for, invoice_token null; the CLI's issue says it cannot type the amount yet instead of failing on it", async () => {
    await rpc.stop()
    try {
      const accessToken = await readOnlySignIn()
      const answer = await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${accessToken}` } })
      const body = await answer.json()
      expect(answer.status, JSON.stringify(body)).toBe(200)
      expect(body).toMatchObject({ studio: { id: ctx.oauth.studioId }, scopes: ['invoice:read'], invoice_token: null })

      const issuing = runMerchantCommand({ serverUrl: ctx.server.url, bearer: async () => accessToken }, ['invoices', 'issue', '--customer', 'any', '--amount', '250'])
      await expect(issuing).rejects.toThrow(MerchantCommandError)
      await expect(issuing).rejects.toThrow(/cannot say its token's decimals now/)
    } finally {
      await rpc.start()
    }
    // the chain back, the token is read from it
    const accessToken = await readOnlySignIn()
    const answer = await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${accessToken}` } })
    expect(await answer.json()).toMatchObject({ invoice_token: { address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 } })
  })
})
