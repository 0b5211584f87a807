import { isAddressEqual, type Address } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { decodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { fromWireUserOp, toWireUserOp, type WireUserOp } from '../../../shared/userOpWire'
import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import type { Principal } from '../../auth/principal'
import { BundlerRejectedError } from '../../chain/bundler'
import { HttpError } from '../../http/httpError'
import { assertVaultOwner, prepareOwnerOperation } from '../signer/prepareOwnerOperation'
import { waitForSessionCall } from '../signer/sendSessionCall'
import type { CancelDependencies, SubmitCancelOutcome } from './submitCancel'

async function issuedInvoiceOf(dependencies: CancelDependencies, principal: Principal, id: bigint) {
  // the chain's status now, not a cached Issued
  dependencies.invoices.forget(id)
  const invoice = await readOwnedInvoice(dependencies.invoices, dependencies.chainId, principal, id)
  if (invoice.status !== 'Issued') throw new HttpError(400, 'INVALID_STATUS', `the invoice is ${invoice.status}: only an Issued invoice can be canceled`, { status: invoice.status })
  return invoice
}

/**
 * SPEC 4.11's cancel/prepare: the vault's operation that cancels the invoice, sponsored by our
 * paymaster for one of our studios (counted in its daily and monthly quotas once it is submitted), and the typed Cancel message whose
 * owner signature authorises it. Nothing is sent: the owner's wallet signs, then cancel submits.
 */
export async function prepareOwnerCancel(dependencies: CancelDependencies, principal: Principal, id: bigint, ownerAddress: Address) {
  const { deployment } = dependencies.signer
  await issuedInvoiceOf(dependencies, principal, id)
  const vault = principal.studio.vaultAddress
  await assertVaultOwner(dependencies.signer, vault, ownerAddress)
  const call: MerchantVaultCall = { kind: 'Cancel', registry: deployment.registry, invoice: id }
  // counted when the signed operation is sent, not here: a key that may prepare but whose owner never
  // signs must not use up the studio's day
  const { userOp, userOpHash, validUntil, typedData } = await prepareOwnerOperation(dependencies.signer, { studioId: principal.studio.id, vault, call, spendQuota: false })
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
  const reference = earlier ? null : await sendCounted(dependencies, principal.studio.id, userOp)
  const outcome = await waitForSessionCall(signing, userOpHash, reference)
  if (outcome.status === 'pending') return outcome
  dependencies.invoices.forget(id)
  return { status: 'confirmed', userOpHash, txHash: outcome.txHash }
}

/** Sends the owner's cancel, counted in the studio's quotas when our paymaster pays for it
 * (QUOTA_EXCEEDED past it, nothing sent); an operation the bundler refused is given back. */
async function sendCounted(dependencies: CancelDependencies, studioId: string, userOp: UserOperation<'0.7'>): Promise<string | undefined> {
  const signing = dependencies.signer
  const sponsored = await signing.registeredMerchant(userOp.sender)
  if (sponsored) await signing.quota.reserve(studioId)
  try {
    return await signing.bundler.send(userOp)
  } catch (error) {
    if (sponsored && error instanceof BundlerRejectedError) await signing.quota.release(studioId)
    throw error
  }
}
