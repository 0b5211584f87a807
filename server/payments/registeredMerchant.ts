import type { Address } from 'viem'
import type { StudioStore } from '../store/studioStore'

/**
 * Whether an invoice's merchant is a studio of this server on its chain. The registry lets anyone
 * issue an invoice, so an invoice alone proves nothing: sponsoring every one would let anybody spend
 * the paymaster's deposit on payments to themselves. Gas is sponsored only for payments to the
 * merchants this server serves.
 */
export type RegisteredMerchant = (merchant: Address) => Promise<boolean>

export function registeredMerchantOf(studios: Pick<StudioStore, 'findStudioByVault'>, chainId: number): RegisteredMerchant {
  return async (merchant) => (await studios.findStudioByVault(chainId, merchant)) !== null
}
