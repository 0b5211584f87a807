import { isAddressEqual, type Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { decodeMerchantVaultCall, type MerchantVaultCall } from '../../../shared/merchantVaultCall'
import { canonicalJson, hashMetadata } from '../../../shared/metadataHash'
import type { InvoiceMetadata } from '../../../shared/metadata'
import { fromWireUserOp, toWireUserOp } from '../../../shared/userOpWire'
import type { Studio } from '../../store/studioStore'
import { HttpError, ValidationError, type ValidationIssue } from '../../http/httpError'
import { deliverInvoiceEmail, type DeliveryAnswer } from '../email/deliverInvoiceEmail'
import { fingerprintOf } from '../idempotency/issueFingerprint'
import type { IdempotentSteps } from '../idempotency/runIdempotent'
import { assertVaultOwner, prepareOwnerOperation } from '../signer/prepareOwnerOperation'
import type { PrepareIssueRequest, SubmitIssueRequest } from './clientSignedWire'
import { finalizeIssuance, pollIssuance, type IssueDependencies, type IssueWork } from './issueInvoice'
import { isoDay } from '../../../shared/oneLineInvoiceRecord'

type IssueCall = Extract<MerchantVaultCall, { kind: 'Issue' }>

/** The issued_invoices row keeps an invoice number of at most this many characters. */
const maxInvoiceNumberLength = 64

/**
 * The metadata a prepare carries must be the record the chain will commit to: it hashes to metaHash
 * (SPEC 2.5, the pay page checks exactly that) and names the amount, days and token the operation
 * issues, so that what the payer reads is what the registry holds.
 */
function metadataProblems(dependencies: IssueDependencies, body: PrepareIssueRequest, metadata: InvoiceMetadata): ValidationIssue[] {
  const { deployment } = dependencies.signer
  const problems: ValidationIssue[] = []
  if (hashMetadata(metadata).toLowerCase() !== body.metaHash.toLowerCase()) {
    problems.push({ path: 'body.metaHash', message: "metaHash is not the metadata's hash (keccak256 of its canonical JSON, shared/metadataHash.ts): the chain would commit to another record than the one kept" })
  }
  if (metadata.amountRaw !== body.amount.toString()) problems.push({ path: 'body.metadata.amountRaw', message: 'the metadata names another amount than the invoice issues' })
  if (!isAddressEqual(metadata.token.address, deployment.token) || metadata.token.chainId !== deployment.chainId) {
    problems.push({ path: 'body.metadata.token', message: "the metadata names another token or chain than this deployment's" })
  }
  if (metadata.dueAt.slice(0, 10) !== isoDay(body.dueAt)) problems.push({ path: 'body.metadata.dueAt', message: `the metadata's due day is not dueAt's (${isoDay(body.dueAt)})` })
  if (metadata.issuedAt.slice(0, 10) !== isoDay(body.issuedAt)) problems.push({ path: 'body.metadata.issuedAt', message: `the metadata's issue day is not issuedAt's (${isoDay(body.issuedAt)})` })
  if (metadata.invoiceNumber.length > maxInvoiceNumberLength) problems.push({ path: 'body.metadata.invoiceNumber', message: `the invoice number is at most ${maxInvoiceNumberLength} characters` })
  return problems
}

/** What makes two prepares the same request (SPEC 7.4.1): every field as parsed, the metadata as its canonical JSON. */
export function prepareFingerprint(studioId: string, chainId: number, body: PrepareIssueRequest): string {
  return fingerprintOf([
    'invoices.prepare',
    studioId.toLowerCase(),
    String(chainId),
    body.ownerAddress.toLowerCase(),
    body.amount.toString(),
    body.dueAt.toString(),
    body.issuedAt.toString(),
    body.tokenURI,
    body.metaHash.toLowerCase(),
    body.mandateHash.toLowerCase(),
    body.quoteId ?? null,
    body.customerId?.toLowerCase() ?? null,
    body.metadata ? canonicalJson(body.metadata) : null,
  ])
}

/**
 * SPEC 4.10's prepare: the vault's issueInvoice as an operation for its owner's wallet to sign,
 * sponsored by our paymaster within the studio's daily and monthly quotas, and the typed Issue message whose
 * signature is the operation's. With metadata, the record is checked against metaHash and kept
 * sealed under the operation's hash (encryption.pendingInvoiceId) until the invoice exists. Nothing is sent.
 *
 * mandateHash has no place on this registry: it is checked as 32 bytes and counted in the request's
 * fingerprint, and goes no further. issuedAt is the merchant's own date; the registry stamps its block's.
 */
export async function prepareClientIssuance(dependencies: IssueDependencies, studio: Studio, body: PrepareIssueRequest) {
  const { signer: signing } = dependencies
  const { client, deployment } = signing
  const problems: ValidationIssue[] = []
  if (body.issuedAt > body.dueAt) problems.push({ path: 'body.issuedAt', message: 'issuedAt is after dueAt' })
  if (body.metadata) problems.push(...metadataProblems(dependencies, body, body.metadata))
  if (problems.length > 0) throw new ValidationError(problems)
  const [customer, block] = await Promise.all([
    body.customerId ? dependencies.customers.getCustomer(studio.id, body.customerId) : null,
    client.getBlock(),
    assertVaultOwner(signing, studio.vaultAddress, body.ownerAddress),
  ])
  if (body.customerId && !customer) throw new HttpError(404, 'NOT_FOUND', 'no customer of this studio has this id', { field: 'customerId' })
  // the registry refuses a due time already past; said here as the field it is
  if (body.dueAt < block.timestamp) throw new ValidationError([{ path: 'body.dueAt', message: 'the due time has passed: send a time in the future' }])
  const call: IssueCall = { kind: 'Issue', registry: deployment.registry, token: deployment.token, amount: body.amount, dueAt: body.dueAt, metaHash: body.metaHash, tokenURI: body.tokenURI }
  const { userOp, userOpHash, validUntil, typedData } = await prepareOwnerOperation(signing, { studioId: studio.id, vault: studio.vaultAddress, call })
  if (body.metadata) {
    await dependencies.issued.recordSent({
      userOpHash,
      studioId: studio.id,
      chainId: deployment.chainId,
      registry: deployment.registry,
      customerId: customer?.id ?? null,
      invoiceNumber: body.metadata.invoiceNumber,
      amount: body.amount,
      dueAt: body.dueAt,
      metaHash: body.metaHash,
      // the submit decides whether the customer is mailed
      sendEmail: false,
      metadata: body.metadata,
    })
  }
  return {
    success: true as const,
    userOp: toWireUserOp(userOp),
    userOpHash,
    expiresAt: new Date(validUntil * 1000).toISOString(),
    typedDataToSign: {
      domain: typedData.domain,
      types: { Issue: typedData.types.Issue.map((field) => ({ ...field })) },
      primaryType: 'Issue' as const,
      message: {
        registry: deployment.registry,
        token: deployment.token,
        amount: body.amount.toString(),
        dueAt: body.dueAt.toString(),
        metaHash: body.metaHash,
        tokenURI: body.tokenURI,
        vault: studio.vaultAddress,
        validUntil: validUntil.toString(),
        operation: userOpHash,
      },
    },
    ...(body.metadata ? { encryption: { pendingInvoiceId: userOpHash, ipfsCid: null, metaHash: body.metaHash, shareLink: null } } : {}),
  }
}

/** The 200 body of POST /v1/invoices. JSON only: the idempotency record keeps it to replay. */
export type ClientIssuedAnswer = {
  status: 'confirmed'
  userOpHash: Hex
  txHash: Hex
  invoiceId: string
  shareLink?: string
  paymentUrl?: string
  delivery?: DeliveryAnswer
}

export type CheckedSubmission = { userOp: UserOperation<'0.7'>; userOpHash: Hex; fingerprint: string; prepared: boolean }

/**
 * What POST /v1/invoices checks before anything is sent: the operation is this studio vault's
 * issueInvoice on this deployment's registry and token, under the owner's nonce key; when the prepare
 * kept metadata (pendingInvoiceId), it is exactly that prepared operation (its hash covers callData,
 * every gas field and the paymaster's fields); the customer to mail is the studio's. The signature
 * is the vault's to judge: a bare hash or anyone but the owner is refused by its validation.
 */
export async function checkClientSubmission(dependencies: IssueDependencies, studio: Studio, body: SubmitIssueRequest): Promise<CheckedSubmission> {
  const { deployment } = dependencies.signer
  const userOp = fromWireUserOp(body.userOp)
  if (!isAddressEqual(userOp.sender, studio.vaultAddress)) throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation is not your studio vault's")
  if (userOp.nonce >> 64n !== 0n) throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation is under a module's nonce key: a client-signed issuance is signed by the vault's owner (nonce key 0), as prepare builds it")
  let call: MerchantVaultCall | null
  try {
    call = decodeMerchantVaultCall(userOp.callData)
  } catch {
    call = null
  }
  if (call?.kind !== 'Issue' || !isAddressEqual(call.registry, deployment.registry) || !isAddressEqual(call.token, deployment.token)) {
    throw new HttpError(400, 'USEROP_CALL_MISMATCH', "the operation is not the vault's issueInvoice on this deployment's registry and token: sign the one prepare returned")
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  let prepared = false
  let preparedCustomerId: string | null = null
  if (body.pendingInvoiceId) {
    const pending = await dependencies.issued.find(body.pendingInvoiceId)
    if (!pending || pending.studioId !== studio.id || pending.chainId !== deployment.chainId) {
      throw new HttpError(404, 'NOT_FOUND', 'no invoice of this studio was prepared with this pendingInvoiceId', { field: 'pendingInvoiceId' })
    }
    if (userOpHash !== body.pendingInvoiceId.toLowerCase()) {
      throw new HttpError(400, 'USEROP_MISMATCH', 'the operation is not the one prepare returned for this pendingInvoiceId: its call, gas or paymaster fields were changed; sign the prepared operation exactly as it is', {
        pendingInvoiceId: body.pendingInvoiceId,
      })
    }
    prepared = true
    preparedCustomerId = pending.customerId
  }
  if (body.customerId && !(await dependencies.customers.getCustomer(studio.id, body.customerId))) {
    throw new HttpError(404, 'NOT_FOUND', 'no customer of this studio has this id', { field: 'customerId' })
  }
  // the prepare named the invoice's customer: the mail goes to that one, or the request says which it means
  if (preparedCustomerId && body.customerId && preparedCustomerId !== body.customerId.toLowerCase()) {
    throw new HttpError(400, 'CUSTOMER_MISMATCH', 'the invoice was prepared for another customer: send without customerId, or with the id of the customer it was prepared for')
  }
  const fingerprint = fingerprintOf([
    'invoices.submit',
    studio.id.toLowerCase(),
    String(deployment.chainId),
    canonicalJson(toWireUserOp(userOp)).toLowerCase(),
    body.pendingInvoiceId?.toLowerCase() ?? null,
    body.sendEmail ?? false,
    body.customerId?.toLowerCase() ?? null,
  ])
  return { userOp, userOpHash, fingerprint, prepared }
}

/**
 * The steps runIdempotent runs for a checked submission: send it (or find it sent: a signed
 * operation can be included once only, its nonce sees to that), wait for its InvoiceIssued, then
 * finalize what the prepare kept and mail the customer when asked.
 */
export function clientIssuanceSteps(dependencies: IssueDependencies, studio: Studio, body: SubmitIssueRequest, checked: CheckedSubmission): IdempotentSteps<IssueWork, ClientIssuedAnswer> {
  const { signer: signing } = dependencies
  return {
    async submit({ submissionBegins }) {
      const { userOpHash } = checked
      const earlier = await signing.bundler.receipt(userOpHash)
      await submissionBegins({ userOpHash }, userOpHash)
      if (!earlier) await signing.bundler.send(checked.userOp)
      // out of the studio's reserved operations (its prepare counted it, and keeps it counted)
      await signing.quota.sent(userOpHash)
      return { userOpHash }
    },
    poll: ({ userOpHash }) => pollIssuance(dependencies, { userOpHash }),
    async finalize({ userOpHash, invoiceId, txHash }) {
      const answer: ClientIssuedAnswer = { status: 'confirmed', userOpHash, txHash, invoiceId: invoiceId.toString() }
      if (!checked.prepared && !(await dependencies.issued.find(userOpHash))) return answer
      // the prepared metadata stored under the chain's metaHash, and the invoice's default share link
      const issued = await finalizeIssuance(dependencies, { userOpHash, invoiceId, txHash })
      const delivery = body.sendEmail ? await mailCustomer(dependencies, studio, body.customerId!, { invoiceId, issued }) : undefined
      return { ...answer, shareLink: issued.shareLink, paymentUrl: issued.paymentUrl, ...(delivery ? { delivery } : {}) }
    },
  }
}

async function mailCustomer(
  dependencies: IssueDependencies,
  studio: Studio,
  customerId: string,
  { invoiceId, issued }: { invoiceId: bigint; issued: Awaited<ReturnType<typeof finalizeIssuance>> },
): Promise<DeliveryAnswer> {
  const key = dependencies.invoiceKey(invoiceId)
  const [customer, metadata] = await Promise.all([dependencies.customers.getCustomer(studio.id, customerId), dependencies.metadata.getMetadata(key)])
  const to = customer?.email ?? ''
  if (!dependencies.email || !customer || !metadata) return { status: dependencies.email ? 'failed' : 'not_configured', to }
  return deliverInvoiceEmail(dependencies.email, {
    studioId: studio.id,
    invoice: key,
    recipient: { customerId: customer.id, name: customer.legalName, email: customer.email, country: customer.address.country },
    mail: {
      merchantName: metadata.merchant.name,
      invoiceNumber: issued.invoiceNumber,
      amount: BigInt(issued.amount),
      token: { symbol: metadata.token.symbol, decimals: metadata.token.decimals },
      dueAt: BigInt(issued.dueAt),
      shareLink: issued.shareLink,
    },
    trigger: 'issuance',
  })
}
