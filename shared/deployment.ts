import * as z from 'zod/mini'

export const addressSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address')) as unknown as z.ZodMiniType<`0x${string}`>
export const hexSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'a 0x-prefixed hex string')) as unknown as z.ZodMiniType<`0x${string}`>
export const bytes32Schema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte hex string')) as unknown as z.ZodMiniType<`0x${string}`>
/** Base-unit integers travel as decimal strings (SPEC 1): JSON numbers cannot hold them. */
export const uintStringSchema = z.string().check(z.regex(/^(0|[1-9]\d{0,77})$/, 'a non-negative integer string'))

/** The contracts a payment touches. The widget pins these in its build and checks every server
 * answer against them; they never come from the server being checked. */
export const deploymentSchema = z.object({
  chainId: z.int().check(z.positive()),
  entryPoint: addressSchema,
  token: addressSchema,
  registry: addressSchema,
  vaultFactory: addressSchema,
  paymaster: addressSchema,
  /** EntryPoint v0.6 and the VerifyingPaymaster on it, for smart wallets that use v0.6 (Coinbase Smart
   * Wallet, Base Account): the ERC-7677 service signs for these. Absent where they are not served. */
  entryPointV06: z.optional(addressSchema),
  paymasterV06: z.optional(addressSchema),
  /** The merchant's side: the factory of merchant vaults (ERC-4337 + ERC-7579) and the module that
   * holds a vault's server signer to issuing and canceling. The payer's page never needs them. */
  merchantVaultFactory: z.optional(addressSchema),
  sessionValidator: z.optional(addressSchema),
})

export type Deployment = z.infer<typeof deploymentSchema>
