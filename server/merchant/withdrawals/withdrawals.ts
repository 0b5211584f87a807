import { formatUnits, isAddressEqual, type Address, type Hex } from 'viem'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import type { WireUserOp } from '../../../shared/userOpWire'
import type { Principal } from '../../auth/principal'
import { HttpError } from '../../http/httpError'
import type { TokenDetails } from '../invoices/tokenDetails'
import type { RefundSubmissionStore } from '../refunds/refundSubmissionStore'
import { prepareOwnerCall, readSignedOwnerOperation } from '../signer/ownerOperation'
import { assertVaultOwner } from '../signer/prepareOwnerOperation'
import { reconcilePendingOwnerOperations } from '../signer/reconcilePendingOwnerOperations'
import { followOwnerOperation, sendOwnerOperation, type OwnerOperationOutcome } from '../signer/sendOwnerOperation'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'
import type { WithdrawalAddressStore } from './withdrawalAddressStore'
import type { Withdrawal, WithdrawalStore } from './withdrawalStore'

export type WithdrawalDependencies = {
  signer: SessionSignerDependencies
  addresses: WithdrawalAddressStore
  withdrawals: WithdrawalStore
  /** Refunds leave the same vault under the same nonce: reconciled before a withdrawal too. */
  refundSubmissions: RefundSubmissionStore
  tokens: TokenDetails
  /** EXPLORER_URL's link to a transaction (studios/merchantReadsOf.ts); absent or null: no link. */
  explorerUrl?: ((txHash: Hex | null) => string | null) | undefined
}

/** SPEC 4.17's rules on where the money may go: only the studio's withdrawal address, set first. */
async function destinationOf(dependencies: WithdrawalDependencies, principal: Principal, asked: Address | undefined): Promise<Address> {
  const { studio } = principal
  const set = await dependencies.addresses.find(studio.id)
  if (!set) throw new HttpError(400, 'NO_WITHDRAWAL_ADDRESS', "this studio has no withdrawal address: its owner sets one (SPEC 4.2) before anything can be withdrawn")
  if (asked && !isAddressEqual(asked, set.address)) {
    throw new HttpError(400, 'ADDRESS_MISMATCH', "destination is not the studio's withdrawal address: a withdrawal goes there and nowhere else", { withdrawalAddress: set.address })
  }
  if (isAddressEqual(set.address, studio.vaultAddress)) throw new HttpError(400, 'ADDRESS_MISMATCH', "the withdrawal address is the studio's own vault: set another")
  return set.address
}

const reconcileBeforeWrite = (dependencies: WithdrawalDependencies, principal: Principal) =>
  reconcilePendingOwnerOperations(dependencies.signer, principal.studio, [dependencies.withdrawals, dependencies.refundSubmissions])

async function vaultBalance(dependencies: WithdrawalDependencies, vault: Address): Promise<bigint> {
  const { client, deployment } = dependencies.signer
  return client.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [vault] })
}

async function assertFunds(dependencies: WithdrawalDependencies, vault: Address, amount: bigint): Promise<bigint> {
  const available = await vaultBalance(dependencies, vault)
  if (amount > available) {
    throw new HttpError(400, 'INSUFFICIENT_FUNDS', `the vault holds ${available} base units of its token, less than the ${amount} asked`, { available: available.toString(), amount: amount.toString() })
  }
  return available
}

/**
 * SPEC 4.17's prepare: the vault's Withdrawal of `amount` of the deployment's token to the studio's
 * withdrawal address, funds checked against the vault's balance on-chain, sponsored by our
 * paymaster, with the typed Withdrawal message the owner signs (the server signer's session cannot:
 * the vault validates a withdrawal by its owner only). Nothing is sent or recorded.
 */
export async function prepareWithdrawal(dependencies: WithdrawalDependencies, principal: Principal, body: { amount: bigint; destination?: Address | undefined; ownerAddress: Address }) {
  const { signer } = dependencies
  const { studio } = principal
  const destination = await destinationOf(dependencies, principal, body.destination)
  await assertVaultOwner(signer, studio.vaultAddress, body.ownerAddress)
  await reconcileBeforeWrite(dependencies, principal)
  const available = await assertFunds(dependencies, studio.vaultAddress, body.amount)
  const token = signer.deployment.token
  const prepared = await prepareOwnerCall(signer, { studioId: studio.id, vault: studio.vaultAddress, call: { kind: 'Withdrawal', token, amount: body.amount, to: destination } })
  const { symbol, decimals } = await dependencies.tokens(token)
  return {
    success: true as const,
    userOp: prepared.userOp,
    userOpHash: prepared.userOpHash,
    typedDataToSign: prepared.typedDataToSign,
    expiresAt: prepared.expiresAt,
    withdrawalSummary: {
      vault: studio.vaultAddress,
      token,
      symbol,
      amount: body.amount.toString(),
      amountFormatted: formatUnits(body.amount, decimals),
      destination,
      availableBefore: available.toString(),
      availableAfter: (available - body.amount).toString(),
    },
  }
}

export type SubmitWithdrawalOutcome = OwnerOperationOutcome & { withdrawalId: string }

/**
 * SPEC 4.17's submit: the prepared operation as the owner signed it, checked to be this vault's
 * withdrawal to the studio's address (and of the amount and destination the body names, when it
 * names them), recorded before it leaves and then sent. The same operation sent again while it is
 * pending is followed, never sent twice; once confirmed or failed it is refused.
 */
export async function submitWithdrawal(dependencies: WithdrawalDependencies, principal: Principal, body: { userOp: WireUserOp; amount?: bigint | undefined; destination?: Address | undefined }): Promise<SubmitWithdrawalOutcome> {
  const { signer, withdrawals } = dependencies
  const { studio } = principal
  const signed = readSignedOwnerOperation(signer, studio.vaultAddress, body.userOp, 'Withdrawal')
  const call = signed.call as Extract<typeof signed.call, { kind: 'Withdrawal' }>
  const earlier = await withdrawals.findByUserOpHash(signed.userOpHash)
  if (earlier && !rejected(earlier)) return again(dependencies, earlier)

  const destination = await destinationOf(dependencies, principal, body.destination)
  if (!isAddressEqual(call.to, destination)) throw new HttpError(400, 'ADDRESS_MISMATCH', "the operation pays another address than the studio's withdrawal address", { withdrawalAddress: destination })
  if (body.amount !== undefined && body.amount !== call.amount) throw new HttpError(400, 'USEROP_CALL_MISMATCH', `the operation withdraws ${call.amount}, not the ${body.amount} asked`)
  if (!isAddressEqual(call.token, signer.deployment.token)) throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation withdraws another token than the deployment's")
  await reconcileBeforeWrite(dependencies, principal)
  await assertFunds(dependencies, studio.vaultAddress, call.amount)
  const sentAtBlock = await signer.client.getBlockNumber({ cacheTime: 0 })
  const row = await withdrawals.begin({
    studioId: studio.id,
    chainId: signer.deployment.chainId,
    token: call.token,
    amount: call.amount,
    destination: call.to,
    userOpHash: signed.userOpHash,
    nonce: signed.userOp.nonce,
    validUntil: signed.validUntil,
    sentAtBlock,
  })
  // another request recorded the same operation a moment ago: it is that request's to send
  if (!row) return again(dependencies, (await withdrawals.findByUserOpHash(signed.userOpHash))!)
  const outcome = await sendOwnerOperation(signer, withdrawals, row.id, signed.userOp, signed.userOpHash)
  return { ...outcome, withdrawalId: row.id }
}

/** Refused by the EntryPoint's validation, never included: the same operation may come back with
 * another signature (the owner's, after a bare hash was refused). */
const rejected = (row: Pick<Withdrawal, 'status' | 'failure'>) => row.status === 'failed' && row.failure === 'rejected'

/** The operation has a row already: followed while pending, refused once settled. */
async function again(dependencies: WithdrawalDependencies, earlier: Withdrawal): Promise<SubmitWithdrawalOutcome> {
  if (earlier.status === 'pending') return { ...(await followOwnerOperation(dependencies.signer, dependencies.withdrawals, earlier.id, earlier.userOpHash)), withdrawalId: earlier.id }
  throw new HttpError(409, 'ALREADY_SUBMITTED', `this operation was submitted before and is ${earlier.status}: prepare a new withdrawal`, {
    withdrawalId: earlier.id,
    userOpHash: earlier.userOpHash,
    status: earlier.status,
    ...(earlier.txHash ? { txHash: earlier.txHash } : {}),
  })
}

/** SPEC 4.17's history, rows as 2.15, newest first; pending rows are reconciled from the chain first. */
export async function listWithdrawals(dependencies: WithdrawalDependencies, principal: Principal, { limit, offset }: { limit: number; offset: number }) {
  const { studio } = principal
  await reconcilePendingOwnerOperations(dependencies.signer, studio, [dependencies.withdrawals]).catch((error: unknown) => {
    // a read does not wait for an operation still on its way: it lists it as pending
    if (!(error instanceof HttpError && error.code === 'OWNER_OPERATION_PENDING')) throw error
  })
  const { items, total } = await dependencies.withdrawals.list(studio.id, { limit, offset })
  const { decimals } = await dependencies.tokens(dependencies.signer.deployment.token)
  return {
    success: true as const,
    data: {
      items: items.map((row) => ({
        id: row.id,
        amount: row.amount.toString(),
        amountFormatted: formatUnits(row.amount, decimals),
        destination: row.destination,
        status: row.status,
        txHash: row.txHash,
        userOpHash: row.userOpHash,
        explorerUrl: dependencies.explorerUrl?.(row.txHash) ?? null,
        createdAt: row.createdAt.toISOString(),
        confirmedAt: row.confirmedAt?.toISOString() ?? null,
      })),
      total,
      limit,
      offset,
    },
  }
}
