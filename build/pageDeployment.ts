import type { PinnedDeployment } from '../shared/pinnedDeployment.ts'

export type PageDeployment = Omit<PinnedDeployment, 'entryPointV06' | 'paymasterV06' | 'merchantVaultFactory' | 'sessionValidator'>

/**
 * What the page is built with of a deployment, and writes beside itself (dist/deployment.json): all
 * but the v0.6 EntryPoint and paymaster and the merchant's contracts. Those are the paymaster
 * service's (a smart wallet names its own EntryPoint) and the merchant side's: the page and the
 * host-page bridge never read them, so no payer downloads them.
 */
export function pageDeployment(deployment: PinnedDeployment): PageDeployment {
  const { entryPointV06: _entryPointV06, paymasterV06: _paymasterV06, merchantVaultFactory: _merchantVaultFactory, sessionValidator: _sessionValidator, ...page } = deployment
  return page
}
