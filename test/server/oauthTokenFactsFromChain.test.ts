import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import { useOAuthServer } from '../support/oauthServer'

// a built page whose deployment file pins this server's token on this chain with the wrong facts, as
// a stale build or an edited file would: 18 decimals and another ticker for the devnet's 6-decimal USDC
const staleBuild = mkdtempSync(join(tmpdir(), 'svc-stale-page-'))
writeFileSync(join(staleBuild, 'deployment.json'), JSON.stringify({ ...JSON.parse(readFileSync(devnetDeploymentFile, 'utf8')), tokenSymbol: 'USDX', tokenDecimals: 18 }))
const ctx = useOAuthServer({ payPageDir: staleBuild })
afterAll(() => rmSync(staleBuild, { recursive: true, force: true }))

describe('GET /oauth/token-info', () => {
  test("states the invoice token's symbol and decimals as the chain holds them, not as a built page's deployment file names them otherwise: a CLI types amounts with these decimals", async () => {
    const { oauth } = await ctx.connectAgent(['invoice:read'])
    const answer = await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })
    const body = await answer.json()
    expect(answer.status, JSON.stringify(body)).toBe(200)
    expect(body.invoice_token).toEqual({ address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 })
  })
})
