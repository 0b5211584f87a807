import { isAddressEqual, type Address, type Hex } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { merchantVaultAbi } from '../../../contracts/artifacts/MerchantVault'
import { encodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { merchantVaultTypedData } from '../../../shared/merchantVaultMessage'
import { referencePreVerificationGas } from '../../chain/referencePreVerificationGas'
import { HttpError } from '../../http/httpError'
import { SessionCallFailedError, type SessionSignerDependencies } from './sendSessionCall'

/** The owner's validation: the typed message's hash and one ECDSA recovery, through the vault's
 * ERC-7579 dispatch; well above what anvil measures (an Issue's message hashes its tokenURI too). */
export const ownerValidationGas = 200_000n
/** The vault's signature: the message's end (6 bytes) and the owner's 65-byte ECDSA signature. */
export const ownerSignatureBytes = 71
export const withMargin = (gas: bigint) => (gas * 130n) / 100n

/**
 * Refuses an ownerAddress that is not the vault's owner as the chain says now: only the owner's
 * signature authorises the vault's operations, so an operation prepared for anyone else could only fail.
 */
export async function assertVaultOwner(signing: Pick<SessionSignerDependencies, 'client'>, vault: Address, ownerAddress: Address): Promise<void> {
  const owner = await signing.client.readContract({ address: vault, abi: merchantVaultAbi, functionName: 'owner' })
  if (!isAddressEqual(owner, ownerAddress)) throw new HttpError(400, 'OWNER_MISMATCH', "ownerAddress is not the vault's owner: only the owner's signature authorises its operations")
}

export type PreparedOwnerOperation = {
  /** Final but for its signature: its gas and paymaster fields are in the hash the owner signs. */
  userOp: UserOperation<'0.7'>
  userOpHash: Hex
  /** The last second both the owner's signature and the paymaster's sponsorship are good for. */
  validUntil: number
  typedData: ReturnType<typeof merchantVaultTypedData>
}

/**
 * The vault operation making `call`, for its owner's wallet to sign (the client-signed routes of SPEC
 * 4.10 and 4.11): the owner's nonce key (0, not the session module's), gas from the chain's estimate,
 * sponsored by our paymaster for one of our studios (one operation of its daily and monthly quotas, given back if
 * the sponsorship fails) or left to pay for itself otherwise, and the MerchantVault's typed message
 * bound to the operation's hash. Nothing is sent. `spendQuota: false` counts nothing here: the route
 * counts at submission (a prepare the owner never signs must not use up the day), or not at all for
 * the server signer's lifecycle (a spent quota must never keep an owner from ending a session).
 * `beforeSponsoring` is told the operation's nonce before our paymaster signs, and may refuse it.
 */
export async function prepareOwnerOperation(
  signing: SessionSignerDependencies,
  { studioId, vault, call, spendQuota = true, beforeSponsoring }: { studioId: string; vault: Address; call: MerchantVaultCall; spendQuota?: boolean; beforeSponsoring?: (nonce: bigint) => Promise<void> },
): Promise<PreparedOwnerOperation> {
  const { client, deployment, sponsor } = signing
  const callData = encodeMerchantVaultCall(call)
  const [nonce, fees, callGas] = await Promise.all([
    client.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [vault, 0n] }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account: deployment.entryPoint, to: vault, data: callData }).catch((cause: unknown) => {
      throw new SessionCallFailedError(`the vault's ${call.kind.toLowerCase()} would revert: ${(cause as Error).message.split('\n')[0]}`, { cause })
    }),
  ])
  let userOp: UserOperation<'0.7'> = {
    sender: vault,
    nonce,
    callData,
    callGasLimit: withMargin(callGas),
    verificationGasLimit: ownerValidationGas,
    preVerificationGas: 0n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  // the owner's signature and the sponsorship end together: neither outlives the other's window
  const validUntil = Math.floor(signing.now() / 1000) + signing.sponsorshipWindowSeconds
  let reserved = false
  if (await signing.registeredMerchant(vault)) {
    await beforeSponsoring?.(nonce)
    if (spendQuota) await signing.quota.reserve(studioId)
    reserved = spendQuota
    try {
      userOp = { ...userOp, ...(await sponsor.stub(userOp, { validUntil })) }
      userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, ownerSignatureBytes)
      const { validUntil: _signed, ...sponsorship } = await sponsor.sign(userOp, { validUntil })
      userOp = { ...userOp, ...sponsorship }
    } catch (error) {
      if (spendQuota) await signing.quota.release(studioId)
      throw error
    }
  } else {
    userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, ownerSignatureBytes)
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  const typedData = merchantVaultTypedData({ chainId: deployment.chainId, vault, call, validUntil: BigInt(validUntil), operation: userOpHash })
  // handed out from here: the studio's quotas show it reserved until it is sent or its sponsorship ends
  if (reserved) await signing.quota.hold(studioId, userOpHash, validUntil)
  return { userOp, userOpHash, validUntil, typedData }
}
