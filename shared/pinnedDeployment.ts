import * as z from 'zod/mini'
import { deploymentSchema, uintStringSchema } from './deployment.ts'

/** Upper bounds on what a sponsored operation may ask for. The paymaster pays, so these protect its
 * deposit as much as the payer; an operation outside them is refused before it is signed. Decimal
 * strings: JSON has no bigint. */
export const userOpLimitsSchema = z.object({
  callGasLimit: uintStringSchema,
  verificationGasLimit: uintStringSchema,
  preVerificationGas: uintStringSchema,
  paymasterVerificationGasLimit: uintStringSchema,
  paymasterPostOpGasLimit: uintStringSchema,
  maxFeePerGas: uintStringSchema,
  maxPriorityFeePerGas: uintStringSchema,
})

export type UserOpLimits = z.infer<typeof userOpLimitsSchema>

/** A build's deployment configuration: the contracts the widget holds every server answer to, the
 * facts about the token it shows amounts in, and the RPCs it reads the chain through. Read and
 * checked once, at build time; nothing here ever comes from the server being checked. */
export const pinnedDeploymentSchema = z.extend(deploymentSchema, {
  /** The accepted token's symbol() and decimals(), read from the chain when the file was written:
   * every amount the payer reads is formatted with these. */
  tokenSymbol: z.string().check(z.minLength(1), z.maxLength(11)),
  tokenDecimals: z.int().check(z.minimum(0), z.maximum(36)),
  /** The token's EIP-712 domain name and version (for USDC "USD Coin" / "2"): a permit under any
   * other domain is refused. */
  permitDomain: z.object({ name: z.string().check(z.minLength(1)), version: z.string().check(z.minLength(1)) }),
  /** JSON-RPC endpoints of the chain, tried in order. The page reads the invoice, its settlement and
   * the payer's vault through these; the first is offered to a wallet that lacks the chain. */
  rpcUrls: z.array(z.url({ protocol: /^https?$/ })).check(z.minLength(1)),
  /** Where the registry's settlement events start (its deployment block): a chain's RPC may refuse
   * log searches from genesis. */
  registryFromBlock: z._default(uintStringSchema, '0'),
  userOpLimits: userOpLimitsSchema,
  chainName: z.optional(z.string().check(z.minLength(1))),
  /** Receipts link a transaction as `${explorerUrl}/tx/${txHash}`. */
  explorerUrl: z.optional(z.url()),
  /** WalletConnect is offered only with one. */
  walletConnectProjectId: z.optional(z.string().check(z.minLength(1))),
})

export type PinnedDeployment = z.infer<typeof pinnedDeploymentSchema>
