import * as z from 'zod/mini'
import { deploymentSchema } from '../shared/deployment.ts'

/** A build's deployment configuration: the contracts the widget holds every server answer to, and
 * what the page needs to reach the chain and label it. Read and checked once, at build time. */
export const pinnedDeploymentSchema = z.extend(deploymentSchema, {
  chainName: z.optional(z.string().check(z.minLength(1))),
  /** Offered to a wallet that does not know the chain yet (wallet_addEthereumChain). */
  rpcUrl: z.optional(z.url()),
  /** Receipts link a transaction as `${explorerUrl}/tx/${txHash}`. */
  explorerUrl: z.optional(z.url()),
  /** WalletConnect is offered only with one. */
  walletConnectProjectId: z.optional(z.string().check(z.minLength(1))),
})

export type PinnedDeployment = z.infer<typeof pinnedDeploymentSchema>
