import { randomUUID } from 'node:crypto'
import { beforeAll, expect, test } from 'vitest'
import { createApiKeyAuditLog } from '../../server/merchant/accounts/apiKeyAuditLog'
import type { Database } from '../../server/store/database'
import { createStudioStore } from '../../server/store/studioStore'
import { useDatabases } from '../support/postgres'

const databases = useDatabases()
let db: Database
let studioId: string
beforeAll(async () => {
  db = await databases.open('pglite')
  studioId = (await createStudioStore(db).createStudio({ name: 'audited', vaultAddress: '0x00000000000000000000000000000000000000a1', chainId: 31337 })).id
})

const countOf = async (keyId: string) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_key_audit_events WHERE key_id = $1', [keyId]))[0]!.n

/** Reports `uses` uses of a new key and answers how many were written, once the writes, which no
 * caller waits for, have settled (the count unchanged for 200 ms). */
async function usesRecorded(random: () => number, uses: number): Promise<number> {
  const keyId = `svc_pk_${randomUUID().replaceAll('-', '')}`
  const log = createApiKeyAuditLog(db, random)
  const failures: unknown[] = []
  for (let i = 0; i < uses; i++) log.sampleUse(studioId, keyId, 'GET', '/v1/customers', (error) => failures.push(error))
  let last = -1
  for (let now = await countOf(keyId); now !== last; now = await countOf(keyId)) {
    last = now
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  expect(failures).toEqual([])
  return last
}

test('behavior: key uses are written one in ten (SPEC 2.8), the draw being below 0.1', async () => {
  let i = 0
  const tenths = () => (i++ % 10) / 10
  expect(await usesRecorded(tenths, 200)).toBe(20)
})

test('behavior: with a random draw, 2,000 uses write about 200 (far outside 120-280 would not be ~10%)', async () => {
  const recorded = await usesRecorded(Math.random, 2_000)
  expect(recorded).toBeGreaterThan(120)
  expect(recorded).toBeLessThan(280)
})
