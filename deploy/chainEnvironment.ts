import type { Deployment } from '../shared/deployment'

/** The chain half of the server's environment (server/config.ts) for a deployment. */
export function chainEnvironment(deployment: Deployment, rpcUrl: string): Record<string, string> {
  return {
    RPC_URL: rpcUrl,
    CHAIN_ID: String(deployment.chainId),
    ENTRY_POINT_ADDRESS: deployment.entryPoint,
    TOKEN_ADDRESS: deployment.token,
    REGISTRY_ADDRESS: deployment.registry,
    VAULT_FACTORY_ADDRESS: deployment.vaultFactory,
    PAYMASTER_ADDRESS: deployment.paymaster,
    ...(deployment.entryPointV06 ? { ENTRY_POINT_V06_ADDRESS: deployment.entryPointV06 } : {}),
    ...(deployment.paymasterV06 ? { PAYMASTER_V06_ADDRESS: deployment.paymasterV06 } : {}),
    ...(deployment.merchantVaultFactory ? { MERCHANT_VAULT_FACTORY_ADDRESS: deployment.merchantVaultFactory } : {}),
    ...(deployment.sessionValidator ? { SESSION_VALIDATOR_ADDRESS: deployment.sessionValidator } : {}),
  }
}
