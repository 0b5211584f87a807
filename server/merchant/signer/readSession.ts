import { isAddressEqual, type Address, type PublicClient } from 'viem'
import { sessionSignerValidatorAbi } from '../../../contracts/artifacts/SessionSignerValidator'
import type { Deployment } from '../../../shared/deployment'

/** A vault's session as its module holds it: all zero when none is installed. */
export type VaultSession = { signer: Address; registry: Address; validUntil: number }

/** The vault's session, read from the session module itself: the chain, not our database, says what
 * the server's key may sign (the owner can end it at any time without telling us). */
export async function readSession(client: PublicClient, deployment: Deployment, vault: Address): Promise<VaultSession | null> {
  if (!deployment.sessionValidator) return null
  const [signer, registry, validUntil] = await client.readContract({
    address: deployment.sessionValidator,
    abi: sessionSignerValidatorAbi,
    functionName: 'sessionOf',
    args: [vault],
  })
  return { signer, registry, validUntil }
}

/**
 * Whether `session` lets `signer` act on `registry` at `nowSeconds`, with `marginSeconds` left: an
 * operation signed a moment before the end would only be refused by the EntryPoint.
 */
export function isLiveSessionFor(session: VaultSession | null, { signer, registry, nowSeconds, marginSeconds = 60 }: { signer: Address; registry: Address; nowSeconds: number; marginSeconds?: number }): boolean {
  if (!session) return false
  return isAddressEqual(session.signer, signer) && isAddressEqual(session.registry, registry) && session.validUntil > nowSeconds + marginSeconds
}
