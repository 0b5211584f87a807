import { getAddress, hashTypedData, isAddressEqual, type Hex } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { canonicalJson } from '../../shared/metadataHash'
import { fromWireUserOp, type WireUserOp } from '../../shared/userOpWire'
import { hasCode } from '../../shared/codedError'
import type { BundlerReceipt } from '../chain/bundler'
import { PaymentRefusedError } from './paymentRefusedError'
import type { PayDependencies } from './payDependencies'
import { payableInvoice } from './payableInvoice'
import type { PreparedPayment } from '../store/paymentStore'
import { assertPermitUsable } from './assertPermitUsable'
import { carriedPermits, payCallOf, preparedDeadline } from './carriedPermits'
import { paymentMessage, paymentTypedData } from '../../shared/paymentMessage'
import { recoverStrict } from '../chain/recoverStrict'

export type SubmitResult =
  | { status: 'confirmed'; userOpHash: Hex; txHash: Hex }
  | { status: 'pending'; userOpHash: Hex; message: string }

type PermitSignatureInput = { v: number; r: Hex; s: Hex }

const pendingMessage = 'submitted; not yet included. Read the invoice until it is Paid; do not prepare a new payment.'

/** The prepared record this operation came from, refusing anything but that operation plus a signature. */
async function preparedFor(context: PayDependencies, invoiceId: bigint, wire: WireUserOp): Promise<PreparedPayment> {
  let userOpHash: Hex
  try {
    userOpHash = getUserOperationHash({
      chainId: context.deployment.chainId,
      entryPointAddress: context.deployment.entryPoint,
      entryPointVersion: '0.7',
      userOperation: fromWireUserOp(wire),
    })
  } catch {
    throw new PaymentRefusedError('USEROP_NOT_PREPARED', 'the operation is malformed')
  }
  const prepared = await context.payments.getPrepared(userOpHash)
  const unsigned = (op: WireUserOp) => canonicalJson({ ...op, signature: undefined })
  if (!prepared || prepared.invoice.invoiceId !== invoiceId || unsigned(normalize(prepared.userOp)) !== unsigned(normalize(wire))) {
    throw new PaymentRefusedError('USEROP_NOT_PREPARED', 'submit the operation exactly as /prepare returned it, changing only its signature')
  }
  return prepared
}

/** Numeric fields compare as numbers and addresses as checksummed, however the client wrote them. */
function normalize(wire: WireUserOp): WireUserOp {
  const op = fromWireUserOp(wire)
  const normalized: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(op)) {
    if (value === undefined) continue
    if (typeof value === 'bigint') normalized[key] = value.toString()
    else if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) normalized[key] = getAddress(value)
    else normalized[key] = typeof value === 'string' ? value.toLowerCase() : value
  }
  return normalized as WireUserOp
}

/** The vault accepts the operation only when its owner signed the typed Payment message it names
 * (contracts/PayerVault.sol), as plain ECDSA: checked the same way here, so a signature the vault
 * would refuse never reaches the bundler. */
async function assertSignedByOwner(context: PayDependencies, prepared: PreparedPayment, signature: Hex) {
  const invalid = new PaymentRefusedError('USEROP_SIGNATURE_INVALID', 'the operation must be signed by the vault owner as its typed Payment message (eth_signTypedData_v4)')
  const call = payCallOf(prepared.userOp.callData)
  if (!call) throw invalid
  const digest = hashTypedData(paymentTypedData(context.deployment.chainId, paymentMessage(call, getAddress(prepared.userOp.sender), prepared.userOpHash)))
  const signer = await recoverStrict(digest, signature)
  if (!signer || !isAddressEqual(signer, prepared.owner)) throw invalid
}

/** SPEC 7.3: an operation without a signed permit (both, when it funds the vault), or with a
 * permitSignature other than its own, is a mismatch whether or not it was prepared: checked before
 * anything is looked up. */
function assertPermitMatches(wire: WireUserOp, permitSignature: PermitSignatureInput | undefined): void {
  const carried = carriedPermits(wire.callData)
  if (!carried) throw new PaymentRefusedError('USEROP_PERMIT_MISMATCH', 'the operation callData carries no signed permit: submit the operation /prepare returned')
  const { permit } = carried
  if (!permitSignature) return
  const same = permitSignature.v === permit.v && permitSignature.r.toLowerCase() === permit.r.toLowerCase() && permitSignature.s.toLowerCase() === permit.s.toLowerCase()
  if (!same) throw new PaymentRefusedError('USEROP_PERMIT_MISMATCH', 'permitSignature differs from the permit in the operation callData')
}

async function waitForReceipt(context: PayDependencies, userOpHash: Hex, reference: string | null | undefined): Promise<BundlerReceipt | null> {
  const deadline = context.now() + context.submitWaitMs
  for (;;) {
    const receipt = await context.bundler.receipt(userOpHash, reference)
    if (receipt || context.now() >= deadline) return receipt
    await new Promise((resolve) => setTimeout(resolve, context.receiptPollMs))
  }
}

async function settle(context: PayDependencies, prepared: PreparedPayment, receipt: BundlerReceipt | null): Promise<SubmitResult> {
  const { userOpHash } = prepared
  if (!receipt) return { status: 'pending', userOpHash, message: pendingMessage }
  context.invoices.forget(prepared.invoice.invoiceId)
  if (receipt.success) {
    await context.payments.markConfirmed(userOpHash, receipt.txHash)
    return { status: 'confirmed', userOpHash, txHash: receipt.txHash }
  }
  await context.payments.markFailed(userOpHash, 'reverted')
  throw new PaymentRefusedError('TRANSACTION_FAILED', 'the payment was included but reverted: read the invoice, it may have been paid or canceled meanwhile', {
    userOpHash,
    txHash: receipt.txHash,
  })
}

/**
 * POST /v1/pay/:id. One submission per operation across every instance: whoever claims it sends it,
 * everyone else (a retry after a lost reply, a second tab) answers from what is known. A failed send
 * can be claimed again; the EntryPoint nonce guarantees the operation is included at most once.
 */
export async function submitPayment(
  context: PayDependencies,
  { invoiceId, userOp, permitSignature }: { invoiceId: bigint; userOp: WireUserOp; permitSignature?: PermitSignatureInput | undefined },
): Promise<SubmitResult> {
  assertPermitMatches(userOp, permitSignature)
  const prepared = await preparedFor(context, invoiceId, userOp)
  await assertSignedByOwner(context, prepared, userOp.signature)
  const { userOpHash } = prepared

  const claim = await context.payments.claimSubmission(userOpHash, userOp.signature)
  if (!claim.claimed) {
    const { submission } = claim
    if (submission.state === 'confirmed' && submission.txHash) return { status: 'confirmed', userOpHash, txHash: submission.txHash }
    if (submission.state === 'lost') {
      // given up by the reconciler (permit lapsed, invoice settled or vault nonce used): waiting on it
      // would be waiting forever, so the payer is told to start again
      await payableInvoice(context, prepared.invoice.invoiceId)
      throw new PaymentRefusedError('PERMIT_EXPIRED', 'this operation can no longer be included: request a new permit and prepare again')
    }
    return settle(context, prepared, await waitForReceipt(context, userOpHash, submission.bundlerRef))
  }

  let reference: string | undefined
  try {
    // a re-claim follows a send that failed or died: it may have landed all the same
    const already = claim.submission.attempts > 1 ? await context.bundler.receipt(userOpHash) : null
    if (already) return await settle(context, prepared, already)
    // paid or canceled since /prepare: refused as /permit and /prepare would, before the bundler is asked
    await payableInvoice(context, prepared.invoice.invoiceId)
    assertPermitUsable(preparedDeadline(prepared), context.now)
    reference = await context.bundler.send(fromWireUserOp({ ...prepared.userOp, signature: userOp.signature }))
    await context.payments.markSubmitted(userOpHash, reference)
  } catch (error) {
    await context.payments.markFailed(userOpHash, error instanceof Error ? error.name : 'unknown')
    if (hasCode(error, 'USEROP_REJECTED')) {
      // a send whose reply was lost may have landed: the chain knows
      const landed = await context.bundler.receipt(userOpHash).catch(() => null)
      if (landed) return settle(context, prepared, landed)
    }
    throw error
  }
  const receipt = await waitForReceipt(context, userOpHash, reference)
  if (!receipt) await context.payments.handOver(userOpHash)
  return settle(context, prepared, receipt)
}
