import { ExecutionRevertedError, isAddressEqual, parseEventLogs, type Address, type Hex, type LocalAccount, type Log, type PublicClient } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { CodedError, walkCauses } from '../../../shared/codedError'
import type { Deployment } from '../../../shared/deployment'
import { encodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { BundlerRejectedError, type Bundler } from '../../chain/bundler'
import { referencePreVerificationGas } from '../../chain/referencePreVerificationGas'
import type { Sponsor } from '../../chain/sponsor'
import type { RegisteredMerchant } from '../../payments/registeredMerchant'
import type { OperationQuota } from './operationQuota'
import type { ServerSignerStore } from './serverSignerStore'
import type { SessionStartAllowance } from './sessionStartAllowance'

/** The two calls a session may make: the session module refuses anything else anyway, but a call the
 * chain will refuse is better never built, signed and paid for. */
export type SessionCall = Extract<MerchantVaultCall, { kind: 'Issue' } | { kind: 'Cancel' }>

/** Everything the server signer needs to send a vault operation and follow it. */
export type SessionSignerDependencies = {
  client: PublicClient
  deployment: Deployment
  bundler: Bundler
  sponsor: Sponsor
  /** SERVER_SIGNER_PRIVATE_KEY's account; null where none is configured. */
  signer: LocalAccount | null
  /** Only our own studios' vaults are sponsored by our paymaster. */
  registeredMerchant: RegisteredMerchant
  quota: OperationQuota
  /** Wall-clock milliseconds. */
  now: () => number
  /** How long a send waits for the receipt before answering pending. */
  submitWaitMs: number
  receiptPollMs: number
  /** The paymaster window: how long the signed sponsorship stays good. */
  sponsorshipWindowSeconds: number
  /** The studios' server signers as this server keeps them (a revocation forced here): absent where
   * no database backs the signer (a tool sending one operation). */
  signers?: ServerSignerStore
  /** The session starts our paymaster sponsors a studio a day (MERCHANT_DAILY_SESSION_STARTS), beside `signers`. */
  sessionStarts?: SessionStartAllowance
}

export class SessionCallRefusedError extends CodedError {
  override name = 'SessionCallRefusedError'
  readonly code = 'SESSION_CALL_REFUSED'
}

/** No session key is configured: nothing can be signed for any vault. */
export class NoServerSignerError extends CodedError {
  override name = 'NoServerSignerError'
  readonly code = 'no_active_signer'
}

/** The operation was included and its call reverted (the registry refused it), or the chain already
 * says it would: TRANSACTION_FAILED, with the hashes the client keeps. */
export class SessionCallFailedError extends CodedError {
  override name = 'SessionCallFailedError'
  readonly code = 'TRANSACTION_FAILED'
}

export type SessionCallOutcome =
  | { status: 'confirmed'; userOpHash: Hex; txHash: Hex; blockNumber: bigint; logs: Log[] }
  | { status: 'pending'; userOpHash: Hex }

export type SendSessionCallParameters<T> = {
  studioId: string
  vault: Address
  /** Builds the call inside the vault's turn, with nothing sent yet: what depends on the vault's state
   * when it is sent (the registry's next invoice number) is read here, at `blockNumber`, and `context`
   * carries it on. The operation's nonce is read at the same block: should another operation of the
   * session land in between, this one is refused rather than sent on a state it was not built for. */
  prepare: (at: { blockNumber: bigint }) => Promise<{ call: SessionCall; context: T }>
  /** Runs with the operation's hash before it leaves: what must be kept to find the operation again
   * (the issuance record, the idempotency record's `submitting`) is written here. */
  beforeSend?: (userOpHash: Hex, context: T) => Promise<void>
}

/** The session module's operations carry its address as their nonce key (ERC-7579, as OpenZeppelin's
 * AccountERC7579 reads it: the key's first 20 bytes). */
const sessionNonceKey = (sessionValidator: Address): bigint => BigInt(sessionValidator) << 32n

/** The session module's validation (its storage, one ECDSA recovery) through the vault's
 * ERC-7579 dispatch, measured well under this on anvil. */
const sessionValidationGas = 150_000n
const withMargin = (gas: bigint) => (gas * 130n) / 100n

/** One operation at a time per vault in this instance: each reads the vault's next nonce and, for an
 * issue, the registry's next invoice number, and both must still hold when it lands. */
const vaultQueues = new Map<string, Promise<unknown>>()

function oneAtATime<T>(vault: Address, run: () => Promise<T>): Promise<T> {
  const key = vault.toLowerCase()
  const previous = vaultQueues.get(key) ?? Promise.resolve()
  const next = previous.then(run, run)
  const settled = next.then(() => undefined, () => undefined)
  vaultQueues.set(key, settled)
  void settled.then(() => {
    if (vaultQueues.get(key) === settled) vaultQueues.delete(key)
  })
  return next
}

/**
 * Sends the prepared call as the vault's operation signed by the server's session key, and waits for
 * it: our paymaster pays for it when the vault is one of our studios' (counted against the studio's
 * daily and monthly quotas, QUOTA_EXCEEDED past either), else the vault's own EntryPoint deposit does. Confirmed with
 * the operation's own logs, or pending when the receipt did not come within submitWaitMs (follow it
 * with followSessionCall). Issue and cancel on the configured registry only. The vault's operations
 * from this instance go one at a time, each until it is included or the wait ends.
 */
export function sendSessionCall<T>(dependencies: SessionSignerDependencies, parameters: SendSessionCallParameters<T>): Promise<SessionCallOutcome & { context: T }> {
  return oneAtATime(parameters.vault, async () => {
    // never a cached head: the previous operation of this vault may have landed a moment ago
    const blockNumber = await dependencies.client.getBlockNumber({ cacheTime: 0 })
    const { call, context } = await parameters.prepare({ blockNumber })
    const outcome = await sendNow(dependencies, {
      studioId: parameters.studioId,
      vault: parameters.vault,
      call,
      blockNumber,
      beforeSend: (hash) => parameters.beforeSend?.(hash, context) ?? Promise.resolve(),
    })
    return { ...outcome, context }
  })
}

async function sendNow(
  dependencies: SessionSignerDependencies,
  { studioId, vault, call, blockNumber, beforeSend }: { studioId: string; vault: Address; call: SessionCall; blockNumber: bigint; beforeSend: (userOpHash: Hex) => Promise<void> },
): Promise<SessionCallOutcome> {
  const { client, deployment, bundler, sponsor, signer } = dependencies
  if (!signer) throw new NoServerSignerError('this server has no signer key (SERVER_SIGNER_PRIVATE_KEY): it cannot sign for any vault')
  if ((call.kind !== 'Issue' && call.kind !== 'Cancel') || !isAddressEqual(call.registry, deployment.registry)) {
    throw new SessionCallRefusedError('the server signer signs only issue and cancel on the configured registry')
  }
  if (!deployment.sessionValidator) throw new NoServerSignerError('this deployment names no session module (SESSION_VALIDATOR_ADDRESS)')
  const callData = encodeMerchantVaultCall(call)
  const [nonce, fees, callGas] = await Promise.all([
    client.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [vault, sessionNonceKey(deployment.sessionValidator)], blockNumber }),
    client.estimateFeesPerGas(),
    // the call as the EntryPoint makes it: a registry that refuses it (a canceled invoice, a due date
    // passed) refuses it here, before anything is signed or paid for
    client.estimateGas({ account: deployment.entryPoint, to: vault, data: callData }).catch((cause: unknown) => {
      const reverted = walkCauses(cause, (error) => error instanceof ExecutionRevertedError)
      // a chain that did not answer is not a refusal: it stays the chain's error (503)
      if (!reverted) throw cause
      throw new SessionCallFailedError(`the vault's ${call.kind.toLowerCase()} would revert: ${(reverted as ExecutionRevertedError).shortMessage}`, { cause })
    }),
  ])
  let userOp: UserOperation<'0.7'> = {
    sender: vault,
    nonce,
    callData,
    callGasLimit: withMargin(callGas),
    verificationGasLimit: sessionValidationGas,
    preVerificationGas: 0n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  const sponsored = await dependencies.registeredMerchant(vault)
  if (sponsored) {
    await dependencies.quota.reserve(studioId)
    try {
      const window = { validUntil: Math.floor(dependencies.now() / 1000) + dependencies.sponsorshipWindowSeconds }
      userOp = { ...userOp, ...(await sponsor.stub(userOp, window)) }
      userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, 65)
      const { validUntil: _signed, ...sponsorship } = await sponsor.sign(userOp, window)
      userOp = { ...userOp, ...sponsorship }
    } catch (error) {
      await dependencies.quota.release(studioId)
      throw error
    }
  } else {
    userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, 65)
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  try {
    // EIP-191 over the hash: what SessionSignerValidator recovers
    userOp.signature = await signer.signMessage({ message: { raw: userOpHash } })
    await beforeSend(userOpHash)
  } catch (error) {
    // nothing left (a retry took the idempotency lease meanwhile): the studio's count gets it back
    if (sponsored) await dependencies.quota.release(studioId)
    throw error
  }
  let reference: string | undefined
  try {
    reference = await bundler.send(userOp)
  } catch (error) {
    // refused as built: nothing went out, so nothing is counted
    if (sponsored && error instanceof BundlerRejectedError) await dependencies.quota.release(studioId)
    throw error
  }
  return waitForSessionCall(dependencies, userOpHash, reference)
}

/** Follows a sent operation until its receipt or submitWaitMs: confirmed with its logs, or pending. */
export async function waitForSessionCall(dependencies: SessionSignerDependencies, userOpHash: Hex, reference?: string | null): Promise<SessionCallOutcome> {
  const deadline = dependencies.now() + dependencies.submitWaitMs
  for (;;) {
    const outcome = await followSessionCall(dependencies, userOpHash, reference)
    if (outcome.status === 'confirmed' || dependencies.now() >= deadline) return outcome
    await new Promise((resolve) => setTimeout(resolve, dependencies.receiptPollMs))
  }
}

/** What became of an operation sent before, asked once: a retry of a 202 comes here. */
export async function followSessionCall(dependencies: SessionSignerDependencies, userOpHash: Hex, reference?: string | null): Promise<SessionCallOutcome> {
  const receipt = await dependencies.bundler.receipt(userOpHash, reference)
  if (!receipt) return { status: 'pending', userOpHash }
  if (!receipt.success) {
    throw new SessionCallFailedError('the operation was included but its call reverted', { details: { userOpHash, txHash: receipt.txHash } })
  }
  const transaction = await dependencies.client.getTransactionReceipt({ hash: receipt.txHash })
  return { status: 'confirmed', userOpHash, txHash: receipt.txHash, blockNumber: transaction.blockNumber, logs: operationLogs(transaction.logs, userOpHash) }
}

/**
 * The logs the operation's own execution emitted: a bundle may carry several operations, and the
 * EntryPoint closes each with its UserOperationEvent, so the operation's logs are those after the
 * previous operation's event and before its own.
 */
export function operationLogs(logs: readonly Log[], userOpHash: Hex): Log[] {
  const events = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: [...logs] })
  const own = events.find((event) => event.args.userOpHash === userOpHash)
  if (!own) return []
  const before = events.filter((event) => event.logIndex < own.logIndex).at(-1)
  return logs.filter((log) => log.logIndex !== null && log.logIndex < own.logIndex && (!before || log.logIndex > before.logIndex))
}
