import type { Address } from 'viem'

/** The owner wallet's module, fetched the first time an owner operation starts: wagmi, viem and the
 * descriptor stay out of the dashboard's first paint (its size budget, test/size/dashboardSize.test.ts). */
let loading: Promise<typeof import('./ownerWallet')> | null = null

export function loadOwnerWallet() {
  loading ??= import('./ownerWallet').catch((error: unknown) => {
    // a failed download is tried again on the next press, not remembered
    loading = null
    throw error
  })
  return loading
}

/** The owner account the merchant connected, kept for the page's life: one connection serves every
 * operation until the wallet says otherwise. */
export const connectedOwner: { address: Address | null } = { address: null }
