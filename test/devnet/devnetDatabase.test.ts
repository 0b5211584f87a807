import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex, getAddress } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { openDevnetDatabase } from '../../devnet/devnetDatabase'
import { openDatabase } from '../../server/store/database'
import { createStudioStore } from '../../server/store/studioStore'
import { useDatabases } from '../support/postgres'

const databases = useDatabases()
const dir = mkdtempSync(join(tmpdir(), 'svc-devnet-database-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const studiosOn = async (db: Awaited<ReturnType<typeof openDevnetDatabase>>) => {
  const studios = createStudioStore(db)
  await studios.createStudio({ name: 'Northwind', vaultAddress: getAddress(bytesToHex(randomBytes(20))), chainId: 31337 })
  return studios
}

describe('the devnet database (npm start)', () => {
  test('behavior: with DATABASE_URL the devnet stores on that PostgreSQL; a database an earlier devnet filled is refused in words that say what to do, and keeps its records', async () => {
    const databaseUrl = await databases.postgresUrl()
    const first = await openDevnetDatabase({ dataDir: join(dir, 'unused'), databaseUrl })
    await studiosOn(first)
    await first.close()

    await expect(openDevnetDatabase({ dataDir: join(dir, 'unused'), databaseUrl })).rejects.toMatchObject({
      code: 'DEVNET_DATABASE_IN_USE',
      message: expect.stringContaining('point DATABASE_URL at an empty database'),
    })
    const direct = await openDatabase({ url: databaseUrl })
    try {
      expect(await direct.query<{ count: number }>('SELECT count(*)::int AS count FROM studios')).toEqual([{ count: 1 }])
    } finally {
      await direct.close()
    }
  })

  test('default: without DATABASE_URL each start has a new embedded database, as its chain is new', async () => {
    const dataDir = join(dir, 'pglite')
    const first = await openDevnetDatabase({ dataDir })
    await studiosOn(first)
    await first.close()

    const second = await openDevnetDatabase({ dataDir })
    try {
      expect(await second.query<{ count: number }>('SELECT count(*)::int AS count FROM studios')).toEqual([{ count: 0 }])
    } finally {
      await second.close()
    }
  })
})
