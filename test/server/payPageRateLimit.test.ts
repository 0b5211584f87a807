import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetDeploymentFile } from '../../build/readPinnedDeployment'
import { useServer } from '../support/server'

const dist = mkdtempSync(join(tmpdir(), 'svc-dist-'))
writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="en"><head><title>Pay</title></head><body><div id="app"></div></body></html>')
copyFileSync(devnetDeploymentFile, join(dist, 'deployment.json'))
afterAll(() => rmSync(dist, { recursive: true, force: true }))

const limit = 1_000
const ctx = useServer({ payPageDir: dist, overrides: { RATE_LIMIT_PER_MINUTE: String(limit), TRUSTED_PROXY_HOPS: '1' } })

/** Through the one proxy TRUSTED_PROXY_HOPS=1 says is ours: it appended the address it saw, after
 * whatever the client wrote. */
const from = (address: string) => ({ headers: { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250)}, ${address}` } })
const inSubnet = (subnet: number, n: number) => `2001:db8:2:${subnet.toString(16)}:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}:c:d`

describe('GET /pay/:id behind a proxy (TRUSTED_PROXY_HOPS=1)', () => {
  test('behavior: 2,000 requests from one /64, each from another of its addresses, are limited as one client; another /64 is not', async () => {
    const page = `${ctx.server.url}/pay/${ctx.devnet.seed.invoices[0]!.id}`
    const statuses: number[] = []
    for (let batch = 0; batch < 2_000; batch += 50) {
      // 50 at a time: the counting, not the order of arrival, is under test
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(page, from(inSubnet(1, batch + i)))))
      for (const answer of answers) {
        statuses.push(answer.status)
        await answer.arrayBuffer()
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(limit)
    expect(statuses.filter((status) => status === 429)).toHaveLength(2_000 - limit)
    const refused = await fetch(page, from(inSubnet(1, 70_000)))
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ error: 'RATE_LIMITED', code: 'RATE_LIMITED' })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const neighbour = await fetch(page, from(inSubnet(2, 1)))
    expect(neighbour.status).toBe(200)
    expect(await neighbour.text()).toContain('<div id="app">')
  })
})
