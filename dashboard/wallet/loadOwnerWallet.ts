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
