import { isAddressEqual, type Address, type Hex } from 'viem'
import { merchantVaultAbi } from '../../../contracts/artifacts/MerchantVault'
import merchantVaultDescriptor from '../../../clear-signing/eip712-svc-checkout-MerchantVault.json'
import { merchantVaultTypes } from '../../../shared/merchantVaultMessage'
import type { WireUserOp } from '../../../shared/userOpWire'
import { HttpError } from '../../http/httpError'
import type { Studio } from '../../store/studioStore'
import { prepareOwnerCall, readSignedOwnerOperation } from './ownerOperation'
import { isLiveSessionFor, readSession, type VaultSession } from './readSession'
import { reconcilePendingOwnerOperations } from './reconcilePendingOwnerOperations'
import { followOwnerOperation, sendOwnerOperation, type OwnerOperationOutcome } from './sendOwnerOperation'
import type { SessionSignerDependencies } from './sendSessionCall'
import type { ServerSignerRecord, ServerSignerStore, SignerOperation, SignerOperationKind } from './serverSignerStore'
import type { SessionStartAllowance } from './sessionStartAllowance'

/** The server signer's parts with the database that keeps its lifecycle. */
export type ServerSignerDependencies = SessionSignerDependencies & { signers: ServerSignerStore; sessionStarts: SessionStartAllowance }

type SignerStudio = Pick<Studio, 'id' | 'vaultAddress'>

/** A session started from the status page, or for a key without an expiry, lasts this long: the
 * year the devnet's own session lasts, after which the owner signs again. */
export const defaultSessionSeconds = 365 * 86_400
/** The session module keeps its end in 48 bits. */
const latestSessionEnd = 2 ** 48 - 1
/** What the session module's validator is, to ERC-7579: the vault must support one to hold a session. */
const moduleTypeValidator = 1n

export function signerDependenciesOf(signing: SessionSignerDependencies | undefined): ServerSignerDependencies {
  if (!signing?.signers || !signing.sessionStarts) throw new Error('the server signer routes are mounted without their dependencies')
  return signing as ServerSignerDependencies
}

export type SignerState =
  | { status: 'not_configured'; message: string }
  | { status: 'upgrade_required'; vaultAddress: Address; message: string }
  | {
      status: 'pending_activation' | 'active' | 'pending_revocation' | 'revoked'
      signer: Address
      record: ServerSignerRecord
      /** The vault's session for this server's signer, live or not; null when none is installed. */
      session: VaultSession | null
      nowSeconds: number
    }

/**
 * SPEC 4.5's status, the chain's truth first: whether the vault's session module lets this server's
 * key issue and cancel now. The database adds what the chain cannot hold: the signer's id, a
 * revocation the owner asked for (pending_revocation until the signed EndSession is included), and a
 * forced one (revoked although the session stays installed). Operations this server sent and did not
 * see included are looked for on the chain first (a submission that timed out).
 */
export async function readSignerState(signing: ServerSignerDependencies, studio: SignerStudio): Promise<SignerState> {
  const { client, deployment, signer } = signing
  if (!signer || !deployment.sessionValidator) {
    return { status: 'not_configured', message: 'this server has no signer key or session module configured: server-signed issuance is not available on this deployment' }
  }
  // read together: each is a round trip to the chain or the database, and none waits for another
  const [code, supportsSessions] = await Promise.all([
    client.getCode({ address: studio.vaultAddress }),
    client.readContract({ address: studio.vaultAddress, abi: merchantVaultAbi, functionName: 'supportsModule', args: [moduleTypeValidator] }).catch(() => false),
    settleSignerOperations(signing, studio),
  ])
  if (!code || code === '0x') return { status: 'not_configured', message: "the studio's vault is not deployed yet: provision it first (SPEC 4.3)" }
  if (!supportsSessions) {
    return { status: 'upgrade_required', vaultAddress: studio.vaultAddress, message: "the studio's vault cannot hold a signer session: upgrade it to ERC-7579 first (POST /v1/studios/:studioId/upgrade-7579)" }
  }
  const [record, session, block] = await Promise.all([
    signing.signers.ensure(studio.id, deployment.chainId, signer.address),
    readSession(client, deployment, studio.vaultAddress),
    client.getBlock({ blockTag: 'latest' }),
  ])
  const nowSeconds = Number(block.timestamp)
  const live = isLiveSessionFor(session, { signer: signer.address, registry: deployment.registry, nowSeconds })
  const base = { signer: signer.address, record, session, nowSeconds }
  // forced here: the chain's session is not ours to end, but our key signs nothing with it
  if (record.revocation === 'database_only') return { status: 'revoked', ...base }
  // a revoke the owner never signed lapses with its operation's signature window: the session holds
  const revoking = record.revocationRequestedAt !== null && record.revocationRequestedAt.getTime() + signing.sponsorshipWindowSeconds * 1000 > signing.now()
  if (live) return { status: revoking ? 'pending_revocation' : 'active', ...base }
  if (record.revocation === 'on_chain') return { status: 'revoked', ...base }
  return { status: 'pending_activation', ...base }
}

/** Settles the studio's lifecycle operations left pending; one still on its way stays pending. */
async function settleSignerOperations(signing: ServerSignerDependencies, studio: SignerStudio): Promise<void> {
  await reconcilePendingOwnerOperations(signing, studio, [signing.signers.operations]).catch((error: unknown) => {
    if (!(error instanceof HttpError && error.code === 'OWNER_OPERATION_PENDING')) throw error
  })
}

/** The ERC-7730 descriptor's words for `kind`'s message: what a clear-signing wallet shows. */
function clearSigningOf(kind: SignerOperationKind) {
  const encoded = `${kind}(${merchantVaultTypes[kind].map((field) => `${field.type} ${field.name}`).join(',')})`
  const format = (merchantVaultDescriptor.display.formats as Record<string, { intent: string; fields: { path: string; label: string; visible?: string }[] }>)[encoded]
  if (!format) throw new Error(`the MerchantVault descriptor has no format for ${encoded}`)
  return {
    descriptor: 'clear-signing/eip712-svc-checkout-MerchantVault.json',
    intent: format.intent,
    fields: format.fields.filter((field) => field.visible !== 'never').map(({ path, label }) => ({ path, label })),
  }
}

/**
 * The owner operation for `call`, as SPEC 4.4 and 4.5 answer it (`user_op`): the unsigned operation's
 * fields beside its typed message and the descriptor's words. Sponsored like the owner's other
 * operations, but never counted in the day's quota: an owner must always be able to end a session,
 * and starting one sends nothing until it is signed. A start is counted in the studio's sponsored
 * session starts instead (sessionStartAllowance.ts); an end never is.
 */
async function prepareSignerOperation(signing: ServerSignerDependencies, studio: SignerStudio, call: { kind: 'StartSession'; signer: Address; registry: Address; sessionUntil: bigint } | { kind: 'EndSession' }) {
  const beforeSponsoring = call.kind === 'StartSession' ? (nonce: bigint) => signing.sessionStarts.sponsor(studio.id, nonce) : undefined
  const prepared = await prepareOwnerCall(signing, { studioId: studio.id, vault: studio.vaultAddress, call, spendQuota: false, ...(beforeSponsoring ? { beforeSponsoring } : {}) })
  return { ...prepared.userOp, userOpHash: prepared.userOpHash, typedDataToSign: prepared.typedDataToSign, expiresAt: prepared.expiresAt, clearSigning: clearSigningOf(call.kind) }
}

/** SPEC 4.4's activation: the StartSession letting this server's key issue and cancel until `sessionUntil` (seconds). */
export async function prepareActivation(signing: ServerSignerDependencies, studio: SignerStudio, sessionUntil: number) {
  const signer = signing.signer!
  const until = BigInt(Math.min(Math.floor(sessionUntil), latestSessionEnd))
  const user_op = await prepareSignerOperation(signing, studio, { kind: 'StartSession', signer: signer.address, registry: signing.deployment.registry, sessionUntil: until })
  return { signer_address: signer.address, user_op }
}

/** SPEC 4.5's GET /status, in its words. */
export async function signerStatus(signing: ServerSignerDependencies, studio: SignerStudio) {
  const state = await readSignerState(signing, studio)
  if (state.status === 'not_configured') return { status: state.status, message: state.message }
  if (state.status === 'upgrade_required') return { status: state.status, vault_address: state.vaultAddress, message: state.message }
  const identity = { signer_id: state.record.signerId, signer_address: state.signer }
  if (state.status === 'active' || state.status === 'pending_revocation') {
    const started = await signing.signers.operations.lastConfirmed(studio.id, 'StartSession')
    const session = state.session!
    return {
      status: state.status,
      ...identity,
      session: { registry: session.registry, valid_until: session.validUntil, expires_at: new Date(session.validUntil * 1000).toISOString() },
      transaction: started?.txHash ? { tx_hash: started.txHash, kind: 'StartSession' as const } : null,
    }
  }
  if (state.status === 'revoked') {
    const forced = state.record.revocation === 'database_only'
    const ended = forced ? null : await signing.signers.operations.lastConfirmed(studio.id, 'EndSession')
    return {
      status: state.status,
      ...identity,
      revocation: state.record.revocation ?? 'on_chain',
      transaction: ended?.txHash ? { tx_hash: ended.txHash, kind: 'EndSession' as const } : null,
      message: forced ? forceRevokedMessage : "the vault's session for this server's signer has ended on-chain: activate it again to issue and cancel with API keys",
      // the way back, should the owner want it: a new session clears the revocation
      ...(await offeredActivation(signing, studio, state.nowSeconds + defaultSessionSeconds)),
    }
  }
  return { status: state.status, ...identity, ...(await offeredActivation(signing, studio, state.nowSeconds + defaultSessionSeconds)) }
}

/** The activation a status offers, with the day's sponsored session starts beside it (read after it,
 * so that they count it): past them, the status is still answered, and says that no session can be
 * started today and from when one can. Reading it is not starting a session. */
async function offeredActivation(signing: ServerSignerDependencies, studio: SignerStudio, sessionUntil: number) {
  const offered = await freshActivation(signing, studio, sessionUntil)
  const { limit, used, resetsAt } = await signing.sessionStarts.usage(studio.id)
  return { ...offered, session_starts: { limit, used, remaining: Math.max(0, limit - used), resets_at: resetsAt.toISOString() } }
}

/** A StartSession until `sessionUntil` for the owner to sign, or why none could be prepared now (the
 * answer still says the status or the key: a paymaster that is down, or the day's sponsored session
 * starts used, must not hide it, and a key's secret is shown once). */
export async function freshActivation(signing: ServerSignerDependencies, studio: SignerStudio, sessionUntil: number) {
  try {
    return { activation: await prepareActivation(signing, studio, sessionUntil) }
  } catch (error) {
    return { activation_error: `no activation could be prepared now: ${(error as Error).message.split('\n')[0]}` }
  }
}

export const forceRevokedMessage =
  "revoked in this service's database only: API keys can no longer issue or cancel with the server signer, but the session stays installed on the vault's session module until the owner ends it on-chain (POST /revoke, then /confirm-revocation with the owner's signature)"

const invalidTransition = (status: string, asked: string) =>
  new HttpError(409, 'INVALID_STATE_TRANSITION', `the server signer is ${status}: it cannot be ${asked} now`, { status })

/** SPEC 4.5's POST /revoke: the EndSession for the owner to sign. Nothing ends until it is sent. */
export async function prepareRevocation(signing: ServerSignerDependencies, studio: SignerStudio) {
  const state = await readSignerState(signing, studio)
  // a forced revocation leaves the session installed: ending it on-chain is still the owner's to do
  const sessionInstalled = state.status === 'active' || state.status === 'pending_revocation' || (state.status === 'revoked' && state.record.revocation === 'database_only' && isLiveSessionFor(state.session, { signer: state.signer, registry: signing.deployment.registry, nowSeconds: state.nowSeconds, marginSeconds: 0 }))
  if (!('record' in state) || !sessionInstalled) throw invalidTransition(state.status, 'revoked on-chain: there is no session of it on the vault')
  const user_op = await prepareSignerOperation(signing, studio, { kind: 'EndSession' })
  if (state.record.revocation !== 'database_only') await signing.signers.requestRevocation(state.record.signerId)
  return { signer_id: state.record.signerId, status: 'pending_revocation' as const, user_op }
}

/** SPEC 4.5's POST /force-revoke: the database refuses the signer's writes from now on; the chain is untouched. */
export async function forceRevoke(signing: ServerSignerDependencies, studio: SignerStudio) {
  const state = await readSignerState(signing, studio)
  if (!('record' in state)) throw invalidTransition(state.status, 'revoked')
  const record = await signing.signers.forceRevoke(state.record.signerId)
  return { signer_id: record.signerId, status: 'revoked' as const, message: record.revocation === 'database_only' ? forceRevokedMessage : 'the session had already ended on-chain: nothing more to revoke' }
}

export type SignerSubmission = { signerId: string; outcome: OwnerOperationOutcome }

/**
 * Sends the owner's signed StartSession (activate-signer) or EndSession (confirm-revocation) and
 * follows it to its receipt. The operation must be the studio vault's, under the owner's nonce key,
 * and a StartSession must name this server's signer and the deployment's registry: the signature
 * itself is the vault's to judge (a tampered operation's hash no longer matches what the owner signed,
 * and the EntryPoint refuses it). Recorded before it leaves: the same operation sent again follows
 * the first, and one that timed out is reconciled from the chain by the next request.
 */
export async function submitSignerOperation(signing: ServerSignerDependencies, studio: SignerStudio, wire: WireUserOp, kind: SignerOperationKind): Promise<SignerSubmission> {
  const { deployment } = signing
  const state = await readSignerState(signing, studio)
  if (!('record' in state)) throw invalidTransition(state.status, kind === 'StartSession' ? 'activated' : 'revoked')
  const signed = readSignedOwnerOperation(signing, studio.vaultAddress, wire, kind)
  if (signed.call.kind === 'StartSession') {
    const { call } = signed
    if (!isAddressEqual(call.signer, state.signer) || !isAddressEqual(call.registry, deployment.registry)) {
      throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation starts a session for another signer or registry than this server's: sign the activation this server answered")
    }
    if (Number(call.sessionUntil) <= state.nowSeconds) throw new HttpError(400, 'USEROP_CALL_MISMATCH', 'the session this operation starts has already ended: prepare a new activation')
  }
  const operations = signing.signers.operations
  const earlier = await operations.findByUserOpHash(signed.userOpHash)
  if (earlier && !(earlier.status === 'failed' && earlier.failure === 'rejected')) return { signerId: state.record.signerId, outcome: await again(signing, earlier) }
  await reconcilePendingOwnerOperations(signing, studio, [operations])
  const sentAtBlock = await signing.client.getBlockNumber({ cacheTime: 0 })
  const row = await operations.begin({ studioId: studio.id, chainId: deployment.chainId, kind, userOpHash: signed.userOpHash, nonce: signed.userOp.nonce, validUntil: signed.validUntil, sentAtBlock })
  if (!row) return { signerId: state.record.signerId, outcome: await again(signing, (await operations.findByUserOpHash(signed.userOpHash))!) }
  return { signerId: state.record.signerId, outcome: await sendOwnerOperation(signing, operations, row.id, signed.userOp, signed.userOpHash) }
}

/** The operation was sent before: followed while pending, its result answered once included. */
async function again(signing: ServerSignerDependencies, earlier: SignerOperation): Promise<OwnerOperationOutcome> {
  if (earlier.status === 'pending') return followOwnerOperation(signing, signing.signers.operations, earlier.id, earlier.userOpHash)
  if (earlier.status === 'confirmed') return { status: 'confirmed', userOpHash: earlier.userOpHash, txHash: earlier.txHash as Hex }
  throw new HttpError(409, 'ALREADY_SUBMITTED', `this operation was submitted before and failed (${earlier.failure}): prepare a new one`, { userOpHash: earlier.userOpHash, ...(earlier.txHash ? { txHash: earlier.txHash } : {}) })
}
