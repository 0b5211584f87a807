import { isAddressEqual, type Address, type Hex } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { decodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { merchantVaultTypes } from '../../../shared/merchantVaultMessage'
import { fromWireUserOp, toWireUserOp, type WireUserOp } from '../../../shared/userOpWire'
import { receiptFromLogs } from '../../chain/bundler'
import { HttpError } from '../../http/httpError'
import { prepareOwnerOperation } from './prepareOwnerOperation'
import type { SessionSignerDependencies } from './sendSessionCall'

/** The owner's operations are the vault's own validation's: nonce key 0. A module's key (the
 * server signer's session) can never validate a withdrawal or a refund. */
const ownerNonceKey = 0n

/** What only the owner signs: moving money out, and starting or ending the server signer's session. */
export type OwnerCall = Extract<MerchantVaultCall, { kind: 'Withdrawal' } | { kind: 'Refund' } | { kind: 'StartSession' } | { kind: 'EndSession' }>

/** The vault's typed message for `call`, integers as decimal strings: what the owner's wallet shows
 * and signs (eth_signTypedData_v4). */
export type OwnerTypedData<Kind extends OwnerCall['kind'] = OwnerCall['kind']> = {
  domain: { name: string; version: string; chainId: number; verifyingContract: Address }
  types: Record<string, { name: string; type: string }[]>
  primaryType: Kind
  message: Record<string, string>
}

/** An owner's typed message as a wallet's eth_signTypedData_v4 takes it: the one primary type's
 * fields, integers as decimal strings. */
export function typedDataToSignOf<Kind extends OwnerCall['kind']>(kind: Kind, typedData: { domain: OwnerTypedData<Kind>['domain']; message: Record<string, unknown> }): OwnerTypedData<Kind> {
  return {
    domain: typedData.domain,
    types: { [kind]: merchantVaultTypes[kind].map((field) => ({ ...field })) },
    primaryType: kind,
    message: Object.fromEntries(Object.entries(typedData.message).map(([name, value]) => [name, typeof value === 'bigint' ? value.toString() : String(value)])),
  }
}

/**
 * A withdrawal or a refund prepared for the owner's wallet (prepareOwnerOperation: sponsored, one of
 * the studio's quotas, a call that would revert refused before anything is signed), as the
 * routes answer it: the operation on the wire and its typed message with integers as strings.
 */
export async function prepareOwnerCall<Call extends OwnerCall>(signing: SessionSignerDependencies, parameters: { studioId: string; vault: Address; call: Call; spendQuota?: boolean; beforeSponsoring?: (nonce: bigint) => Promise<void> }) {
  const { userOp, userOpHash, validUntil, typedData } = await prepareOwnerOperation(signing, parameters)
  const typedDataToSign = typedDataToSignOf(parameters.call.kind as Call['kind'], typedData)
  return { userOp: toWireUserOp(userOp), userOpHash, validUntil, expiresAt: new Date(validUntil * 1000).toISOString(), typedDataToSign }
}

export type SignedOwnerOperation = { userOp: UserOperation<'0.7'>; userOpHash: Hex; call: OwnerCall; validUntil: number }

/**
 * Reads a signed operation sent to a withdrawal or refund route: the studio vault's, under the
 * owner's nonce key (a session's key is refused here: that module signs only issue and cancel), its
 * call exactly one of the vault's, of the kind the route takes. The signature itself is the vault's
 * to judge; its first 6 bytes say until when it holds.
 */
export function readSignedOwnerOperation(signing: SessionSignerDependencies, vault: Address, wire: WireUserOp, kind: OwnerCall['kind']): SignedOwnerOperation {
  const { deployment } = signing
  const userOp = fromWireUserOp(wire)
  if (!isAddressEqual(userOp.sender, vault)) throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation is not your studio vault's")
  if (userOp.nonce >> 64n !== ownerNonceKey) {
    throw new HttpError(400, 'OWNER_SIGNATURE_REQUIRED', `a ${kind.toLowerCase()} is signed by the vault's owner only: this operation is under a module's nonce key (the server signer's session cannot sign it)`)
  }
  let call: MerchantVaultCall | null
  try {
    call = decodeMerchantVaultCall(userOp.callData)
  } catch {
    call = null
  }
  if (call?.kind !== kind) throw new HttpError(400, 'USEROP_CALL_MISMATCH', `the operation is not the vault's ${kind.toLowerCase()}: sign the one prepare returned`)
  const signature = userOp.signature
  const validUntil = signature.length >= 14 ? Number.parseInt(signature.slice(2, 14), 16) : 0
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  return { userOp, userOpHash, call: call as OwnerCall, validUntil }
}

export type OwnerOperationState = { status: 'confirmed'; txHash: Hex } | { status: 'failed'; reason: string; txHash?: Hex } | { status: 'pending' }

/**
 * What became of an owner operation sent before, from the chain: its receipt from the bundler, or
 * else the EntryPoint's own log from the block it was sent at (a bundler that forgot it may have
 * included it all the same). Not included: failed once it can never be (its signature's end is past,
 * or the vault's nonce has moved past it), pending while it still can be.
 */
export async function reconcileOwnerOperation(
  signing: SessionSignerDependencies,
  { userOpHash, sender, nonce, validUntil, sentAtBlock }: { userOpHash: Hex; sender: Address; nonce: bigint; validUntil: number; sentAtBlock: bigint },
): Promise<OwnerOperationState> {
  const receipt = (await signing.bundler.receipt(userOpHash)) ?? (await receiptFromLogs(signing.client, signing.deployment, userOpHash, sentAtBlock))
  if (receipt) return receipt.success ? { status: 'confirmed', txHash: receipt.txHash } : { status: 'failed', reason: 'reverted', txHash: receipt.txHash }
  const { timestamp } = await signing.client.getBlock({ blockTag: 'latest' })
  if (Number(timestamp) > validUntil) return { status: 'failed', reason: 'expired' }
  const next = await signing.client.readContract({ address: signing.deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [sender, nonce >> 64n] })
  // the nonce was used by another operation: this one can never be included (looked for once more,
  // as it may have been included between the two reads)
  if (next > nonce) {
    const late = await receiptFromLogs(signing.client, signing.deployment, userOpHash, sentAtBlock)
    if (late) return late.success ? { status: 'confirmed', txHash: late.txHash } : { status: 'failed', reason: 'reverted', txHash: late.txHash }
    return { status: 'failed', reason: 'nonce_used' }
  }
  return { status: 'pending' }
}
