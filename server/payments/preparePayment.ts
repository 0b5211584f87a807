import { getAddress, type Address } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import type { PermitSignature } from '../../shared/payCall'
import type * as z from 'zod/mini'
import type { prepareResponseSchema } from '../../shared/wire'
import { toWireUserOp } from '../../shared/userOpWire'
import { estimateAccountGas } from '../chain/localGasEstimator'
import { payUserOperation } from '../../shared/payUserOperation'
import { stubEcdsaSignature } from '../chain/stubEcdsaSignature'
import { verifyVaultPermit } from '../chain/verifyVaultPermit'
import { PaymentRefusedError } from './paymentRefusedError'
import type { PayDependencies } from './payDependencies'
import { payableInvoice } from './payableInvoice'
import { earliestDeadline, minPermitRemainingSeconds } from '../../shared/permit'
import { assertPermitUsable, nowSeconds } from './assertPermitUsable'
import { defaultSponsorshipWindowSeconds } from './payDependencies'
import { verifyFunding, type FundingRequest } from './verifyFunding'
import { ownersVault } from './ownersVault'
import { unknownClient } from './sponsorshipLimiter'

/** Typed by the widget's schema for this answer: the two cannot disagree on a field's representation. */
export type PreparedResponse = Omit<z.infer<typeof prepareResponseSchema>, 'success'>

/** Gas fields before they are measured. */
const unmeasured = { callGasLimit: 0n, verificationGasLimit: 0n, preVerificationGas: 0n, paymasterVerificationGasLimit: 0n, paymasterPostOpGasLimit: 0n }

async function resolveVault(context: PayDependencies, payer: Address, owner: Address) {
  const { client } = context
  if (getAddress(await ownersVault(context, owner)) !== getAddress(payer)) {
    throw new PaymentRefusedError('PAYER_NOT_OWNER_VAULT', 'payerAddress is not the vault of ownerAddress')
  }
  const code = await client.getCode({ address: payer })
  const deployed = !!code && code !== '0x'
  if (deployed) {
    const currentOwner = await client.readContract({ address: payer, abi: payerVaultAbi, functionName: 'owner' })
    if (getAddress(currentOwner) !== getAddress(owner)) {
      throw new PaymentRefusedError('PAYER_NOT_OWNER_VAULT', 'payerAddress is not controlled by ownerAddress')
    }
  }
  return { deployed }
}

/**
 * POST /v1/pay/:id/prepare. The permits (the vault's, and the owner account's funding permit when the
 * vault is to be funded in the same operation) are checked before anything is sponsored, as the chain
 * will check them: a bad permit costs the paymaster nothing. Then the operation is built, its gas measured,
 * the sponsorship signed for the window (at most SPONSORSHIP_WINDOW_SECONDS, never past the earlier
 * permit), admitted by the sponsorship limits (SPONSORSHIP_LIMIT past them), and the result recorded
 * so submit accepts only it.
 */
export async function preparePayment(
  context: PayDependencies,
  { invoiceId, payerAddress, ownerAddress, permit, funding: fundingRequest, clientKey }: {
    invoiceId: bigint
    payerAddress: Address
    ownerAddress: Address
    permit: PermitSignature
    funding?: FundingRequest | undefined
    /** Who asked, as the rate limiter keys clients: one of the counts sponsorships are limited by. */
    clientKey?: string | undefined
  },
): Promise<PreparedResponse> {
  const { client, deployment, sponsor, bundler } = context
  const invoice = await payableInvoice(context, invoiceId)
  assertPermitUsable(permit.deadline, context.now)
  const invoiceKey = { chainId: deployment.chainId, registry: deployment.registry, invoiceId }
  // the vault's one slot (key 0) at the EntryPoint: the operation built here uses it, and replaces
  // only an earlier operation of the vault's for the same slot
  const nonce = await client.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [payerAddress, 0n] })
  const counted = { invoice: invoiceKey, sender: payerAddress, owner: ownerAddress, clientKey: clientKey ?? unknownClient, entryPoint: deployment.entryPoint, nonce }
  // a request the limits will refuse costs no gas estimate and no paymaster call
  await context.sponsorships?.check(counted, context.now())
  const amount = BigInt(invoice.amount)
  const { deployed } = await resolveVault(context, payerAddress, ownerAddress)

  const [permitValid, balance, fees, feeBps] = await Promise.all([
    // resolveVault held the vault to ownerAddress (its owner, or the owner its address derives from)
    verifyVaultPermit(client, {
      token: deployment.token,
      chainId: deployment.chainId,
      vault: payerAddress,
      owner: ownerAddress,
      spender: deployment.registry,
      value: amount,
      permit,
    }),
    client.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [payerAddress] }),
    client.estimateFeesPerGas(),
    // the rate the merchant is charged now: the payer's message names it, and the vault pays only at it
    client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'feeBpsFor', args: [getAddress(invoice.merchant)] }),
  ])
  if (!permitValid) {
    throw new PaymentRefusedError('PERMIT_SIGNATURE_INVALID', 'the permit does not verify for payerAddress: sign the permit returned by /permit with the vault owner')
  }
  const funding = fundingRequest
    ? await verifyFunding(context, { funding: fundingRequest, owner: ownerAddress, vault: payerAddress, shortfall: amount - balance })
    : undefined
  if (!funding && balance < amount) {
    throw new PaymentRefusedError('INSUFFICIENT_BALANCE', `the vault holds ${balance} of the ${amount} base units this invoice needs`, {
      balance: balance.toString(),
      required: amount.toString(),
    })
  }

  const earlierDeadline = earliestDeadline(permit, funding?.permit)
  // The sponsorship ends with the permit, or sooner: a payment someone holds back for hours could
  // otherwise be sent after the invoice is paid, to revert at the paymaster's cost. The page prepares
  // again (same permit) when a payer takes longer.
  const windowSeconds = BigInt(context.sponsorshipWindowSeconds ?? defaultSponsorshipWindowSeconds)
  const sponsoredUntil = nowSeconds(context.now) + windowSeconds
  const window = { validUntil: Number(sponsoredUntil < earlierDeadline ? sponsoredUntil : earlierDeadline), permitDeadline: Number(earlierDeadline) }
  const unsponsored = payUserOperation({
    deployment,
    invoiceId,
    invoiceNumber: BigInt(invoice.invoiceNumber),
    merchant: getAddress(invoice.merchant),
    amount,
    feeBps,
    vault: payerAddress,
    owner: ownerAddress,
    vaultDeployed: deployed,
    nonce,
    permit,
    funding,
    gas: { ...unmeasured, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
    paymasterData: '0x',
    signature: stubEcdsaSignature,
  })
  const stubbed = { ...unsponsored, ...(await sponsor.stub(unsponsored, window)) }
  const accountGas = bundler.estimate
    ? await bundler.estimate(stubbed)
    : await estimateAccountGas(client, deployment, stubbed, { owner: ownerAddress, deployed })
  const estimated = { ...stubbed, ...accountGas }
  const { validUntil = window.validUntil, ...sponsorship } = await sponsor.sign(estimated, window)
  const userOp: UserOperation<'0.7'> = { ...estimated, ...sponsorship, signature: '0x' }
  const userOpHash = getUserOperationHash({
    chainId: deployment.chainId,
    entryPointAddress: deployment.entryPoint,
    entryPointVersion: '0.7',
    userOperation: userOp,
  })
  // submit refuses a permit with under two minutes left, and nothing runs past the sponsorship: the
  // prepared payment ends at the earlier
  const expiresAt = new Date(Math.min(Number(earlierDeadline) - minPermitRemainingSeconds, validUntil) * 1000)
  const wire = toWireUserOp(userOp)
  // recorded before it leaves the server: an operation over a limit is never handed to anyone
  await context.sponsorships?.admit({ ...counted, userOpHash, validUntil }, context.now())
  await context.payments.recordPrepared({
    userOpHash,
    invoice: invoiceKey,
    payer: payerAddress,
    owner: ownerAddress,
    userOp: wire,
    permit,
    expiresAt,
  })
  return { userOp: wire, userOpHash, permitDeadline: permit.deadline.toString(), expiresAt: expiresAt.toISOString(), invoice }
}
