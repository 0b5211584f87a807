import { randomUUID } from 'node:crypto'
import { getAddress, type Address } from 'viem'
import { isUuid, isViolationOf, type Database } from './database'
import { StoreError } from './storeError'

/** SPEC 2.1, the part the server keeps: who owns which vault on which chain. */
export type Studio = { id: string; name: string | null; vaultAddress: Address; chainId: number; createdAt: Date }

export class StudioNotFoundError extends StoreError {
  override name = 'StudioNotFoundError'
  readonly code = 'STUDIO_NOT_FOUND'
}

export class StudioVaultTakenError extends StoreError {
  override name = 'StudioVaultTakenError'
  readonly code = 'STUDIO_VAULT_TAKEN'
}

type StudioRow = { id: string; name: string | null; vault_address: string; chain_id: number; created_at: Date }

function toStudio(row: StudioRow): Studio {
  return { id: row.id, name: row.name, vaultAddress: getAddress(row.vault_address), chainId: row.chain_id, createdAt: row.created_at }
}

export function createStudioStore(db: Database) {
  return {
    async createStudio({ name, vaultAddress, chainId }: { name?: string | null | undefined; vaultAddress: Address; chainId: number }): Promise<Studio> {
      try {
        const [row] = await db.query<StudioRow>(
          'INSERT INTO studios (id, name, vault_address, chain_id) VALUES ($1, $2, $3, $4) RETURNING *',
          [randomUUID(), name ?? null, vaultAddress.toLowerCase(), chainId],
        )
        return toStudio(row!)
      } catch (error) {
        if (isViolationOf(error, 'studios_vault_unique')) throw new StudioVaultTakenError('another studio already has this vault on this chain')
        throw error
      }
    },

    async getStudio(id: string): Promise<Studio | null> {
      if (!isUuid(id)) return null
      const [row] = await db.query<StudioRow>('SELECT * FROM studios WHERE id = $1', [id])
      return row ? toStudio(row) : null
    },

    async findStudioByVault(chainId: number, vaultAddress: Address): Promise<Studio | null> {
      const [row] = await db.query<StudioRow>('SELECT * FROM studios WHERE chain_id = $1 AND vault_address = $2', [
        chainId,
        vaultAddress.toLowerCase(),
      ])
      return row ? toStudio(row) : null
    },
  }
}

export type StudioStore = ReturnType<typeof createStudioStore>
