import { z } from 'zod'

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address') as z.ZodType<`0x${string}`>

/** The contracts a payment touches. The widget pins these in its build and checks every server
 * answer against them; they never come from the server being checked. */
export const deploymentSchema = z.object({
  chainId: z.number().int().positive(),
  entryPoint: address,
  token: address,
  registry: address,
  vaultFactory: address,
  paymaster: address,
})

export type Deployment = z.infer<typeof deploymentSchema>

export const addressSchema = address
