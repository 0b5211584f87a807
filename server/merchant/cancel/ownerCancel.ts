import { isAddressEqual, type Address } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { merchantVaultAbi } from '../../../contracts/artifacts/MerchantVault'
import { decodeMerchantVaultCall, encodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { merchantVaultTypedData } from '../../../shared/merchantVaultMessage'
import { fromWireUserOp, toWireUserOp, type WireUserOp } from '../../../shared/userOpWire'
import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import type { Principal } from '../../auth/principal'
import { referencePreVerificationGas } from '../../chain/referencePreVerificationGas'
import { HttpError } from '../../http/httpError'
import { SessionCallFailedError, waitForSessionCall } from '../signer/sendSessionCall'
import type { CancelDependencies, SubmitCancelOutcome } from './submitCancel'

/** The owner's validation: the typed message's hash and one ECDSA recovery, through the vault's
 * ERC-7579 dispatch; well above what anvil measures. */
const ownerValidationGas = 200_000n
/** The vault's signature: the message's end (6 bytes) and the owner's 65-byte ECDSA signature. */
const ownerSignatureBytes = 71
const withMargin = (gas: bigint) => (gas * 130n) / 100n

async function issuedInvoiceOf(dependencies: CancelDependencies, principal: Principal, id: bigint) {
  // the chain's status now, not a cached Issued
  dependencies.invoices.forget(id)
  const invoice = await readOwnedInvoice(dependencies.invoices, dependencies.chainId, principal, id)
  if (invoice.status !== 'Issued') throw new HttpError(400, 'INVALID_STATUS', `the invoice is ${invoice.status}: only an Issued invoice can be canceled`, { status: invoice.status })
  return invoice
}

/**
 * SPEC 4.11's cancel/prepare: the vault's operation that cancels the invoice, sponsored by our
 * paymaster for one of our studios (counted in its daily quota), and the typed Cancel message whose
 * owner signature authorises it. Nothing is sent: the owner's wallet signs, then cancel submits.
 */
export async function prepareOwnerCancel(dependencies: CancelDependencies, principal: Principal, id: bigint, ownerAddress: Address) {
  const { client, deployment, sponsor } = dependencies.signer
  await issuedInvoiceOf(dependencies, principal, id)
  const vault = principal.studio.vaultAddress
  const owner = await client.readContract({ address: vault, abi: merchantVaultAbi, functionName: 'owner' })
  if (!isAddressEqual(owner, ownerAddress)) throw new HttpError(400, 'OWNER_MISMATCH', "ownerAddress is not the vault's owner: only the owner's signature authorises its operations")
  const call: MerchantVaultCall = { kind: 'Cancel', registry: deployment.registry, invoice: id }
  const callData = encodeMerchantVaultCall(call)
  const [nonce, fees, callGas] = await Promise.all([
    client.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [vault, 0n] }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account: deployment.entryPoint, to: vault, data: callData }).catch((cause: unknown) => {
      throw new SessionCallFailedError(`the vault's cancel would revert: ${(cause as Error).message.split('\n')[0]}`, { cause })
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
  const validUntil = Math.floor(dependencies.signer.now() / 1000) + dependencies.signer.sponsorshipWindowSeconds
  if (await dependencies.signer.registeredMerchant(vault)) {
    await dependencies.signer.quota.reserve(principal.studio.id)
    try {
      userOp = { ...userOp, ...(await sponsor.stub(userOp, { validUntil })) }
      userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, ownerSignatureBytes)
      const { validUntil: _signed, ...sponsorship } = await sponsor.sign(userOp, { validUntil })
      userOp = { ...userOp, ...sponsorship }
    } catch (error) {
      await dependencies.signer.quota.release(principal.studio.id)
      throw error
    }
  } else {
    userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, ownerSignatureBytes)
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  const typedData = merchantVaultTypedData({ chainId: deployment.chainId, vault, call, validUntil: BigInt(validUntil), operation: userOpHash })
  return {
    success: true as const,
    userOp: toWireUserOp(userOp),
    userOpHash,
    expiresAt: new Date(validUntil * 1000).toISOString(),
    typedDataToSign: {
      domain: typedData.domain,
      types: { Cancel: [...typedData.types.Cancel] },
      primaryType: 'Cancel' as const,
      message: { registry: deployment.registry, invoice: id.toString(), vault, validUntil: validUntil.toString(), operation: userOpHash },
    },
  }
}

/**
 * SPEC 4.11's client-signed cancel: the prepared operation, signed by the owner, sent as it is. The
 * vault alone judges the signature (a bare hash or anyone but the owner is refused by its validation,
 * TRANSACTION_FAILED with the EntryPoint's reason); the server only checks the operation is this
 * studio vault's cancel of this invoice. The same signed operation sent again after a 202 follows it.
 */
export async function submitOwnerCancel(dependencies: CancelDependencies, principal: Principal, id: bigint, wire: WireUserOp): Promise<SubmitCancelOutcome> {
  const signing = dependencies.signer
  const { deployment } = signing
  const userOp = fromWireUserOp(wire)
  if (!isAddressEqual(userOp.sender, principal.studio.vaultAddress)) throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation is not your studio vault's")
  const call = (() => {
    try {
      return decodeMerchantVaultCall(userOp.callData)
    } catch {
      return null
    }
  })()
  if (call?.kind !== 'Cancel' || call.invoice !== id || !isAddressEqual(call.registry, deployment.registry)) {
    throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation does not cancel this invoice on this deployment's registry: sign the one cancel/prepare returned")
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  // sent before (a 202): follow it rather than send it again
  const earlier = await signing.bundler.receipt(userOpHash)
  if (!earlier) await issuedInvoiceOf(dependencies, principal, id)
  const reference = earlier ? null : await signing.bundler.send(userOp)
  const outcome = await waitForSessionCall(signing, userOpHash, reference)
  if (outcome.status === 'pending') return outcome
  dependencies.invoices.forget(id)
  return { status: 'confirmed', userOpHash, txHash: outcome.txHash }
}
