import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import { useServer } from '../support/server'

// a build as `npm run build` leaves it: the pay page's deployment beside its index.html, the dashboard in dashboard/
const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
mkdirSync(join(dist, 'dashboard'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Pay</title>')
writeFileSync(join(dist, 'dashboard', 'index.html'), '<!doctype html><title>Merchant dashboard</title>')
const deployment = JSON.parse(readFileSync(devnetDeploymentFile, 'utf8')) as { rpcUrls: string[] }
const builtWith = (walletConnectProjectId?: string) => writeFileSync(join(dist, 'deployment.json'), JSON.stringify({ ...deployment, ...(walletConnectProjectId ? { walletConnectProjectId } : {}) }))
builtWith('0123456789abcdef0123456789abcdef')
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const relay = 'wss://relay.walletconnect.org'
const ctx = useServer({ payPageDir: dist, overrides: { PAY_PAGE_CONNECT_SRC: relay } })

/** The origins the dashboard's policy lets its scripts connect to. */
async function dashboardConnectSources(): Promise<string[]> {
  const response = await fetch(`${ctx.server.url}/dashboard`)
  expect(response.status).toBe(200)
  const directive = response.headers.get('content-security-policy')!.split('; ').find((part) => part.startsWith('connect-src '))!
  return directive.split(' ').slice(1)
}

describe("the dashboard's policy with WalletConnect", () => {
  test("behavior: a build that offers the owner WalletConnect lets the dashboard reach WalletConnect's relay and the pinned RPC its provider reads through; one without a project id reaches neither", async () => {
    const rpc = new URL(deployment.rpcUrls[0]!).origin
    expect(await dashboardConnectSources()).toEqual(expect.arrayContaining(["'self'", rpc, relay]))
    builtWith(undefined)
    await ctx.restart()
    const without = await dashboardConnectSources()
    expect(without).toContain("'self'")
    expect(without.filter((source) => source === rpc || source === relay)).toEqual([])
  })
})
