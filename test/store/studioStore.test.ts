import { randomBytes, randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, test } from 'vitest'
import { bytesToHex, getAddress } from 'viem'
import { createStudioStore, StudioVaultTakenError, type StudioStore } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const randomVault = () => getAddress(bytesToHex(randomBytes(20)))

describe.each(backends)('%s', (backend) => {
  let studios: StudioStore
  beforeAll(async () => {
    studios = createStudioStore(await databases.open(backend))
  })

  test('default: a studio is found by id and by its vault', async () => {
    const vaultAddress = randomVault()
    const studio = await studios.createStudio({ name: 'Northwind Studio', vaultAddress, chainId: 31337 })
    expect(studio).toMatchObject({ name: 'Northwind Studio', vaultAddress, chainId: 31337, createdAt: expect.any(Date) })
    expect(studio.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await studios.getStudio(studio.id)).toEqual(studio)
    expect(await studios.findStudioByVault(31337, vaultAddress.toLowerCase() as `0x${string}`)).toEqual(studio)
  })

  test('behavior: a vault belongs to one studio per chain', async () => {
    const vaultAddress = randomVault()
    await studios.createStudio({ vaultAddress, chainId: 31337 })
    await expect(studios.createStudio({ name: 'copycat', vaultAddress, chainId: 31337 })).rejects.toBeInstanceOf(StudioVaultTakenError)
    const elsewhere = await studios.createStudio({ vaultAddress, chainId: 8453 })
    expect(await studios.findStudioByVault(8453, vaultAddress)).toEqual(elsewhere)
  })

  test('behavior: unknown or malformed ids and vaults are null', async () => {
    expect(await studios.getStudio(randomUUID())).toBeNull()
    expect(await studios.getStudio('not-a-uuid')).toBeNull()
    expect(await studios.findStudioByVault(31337, randomVault())).toBeNull()
  })

  test('parameters: the name is optional and at most 100 characters', async () => {
    expect(await studios.createStudio({ vaultAddress: randomVault(), chainId: 31337 })).toMatchObject({ name: null })
    await expect(studios.createStudio({ name: 'x'.repeat(101), vaultAddress: randomVault(), chainId: 31337 })).rejects.toMatchObject({
      code: 'QUERY_FAILED',
      sqlState: '23514',
    })
  })
})
