import { parseEventLogs, type Address, type Hex, type PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import { CodedError, hasCode } from '../../../shared/codedError'
import { hashMetadata } from '../../../shared/metadataHash'
import { oneLineInvoiceRecord } from '../../../shared/oneLineInvoiceRecord'
import { shareLinkFor } from '../../../shared/shareLink'
import type { InvoiceReader } from '../../chain/invoiceReader'
import { HttpError, ValidationError } from '../../http/httpError'
import type { AccessTokenStore } from '../../store/accessTokenStore'
import type { InvoiceKey } from '../../store/invoiceKey'
import type { InvoiceMetadataStore } from '../../store/invoiceMetadataStore'
import type { Studio } from '../../store/studioStore'
import type { CustomerStore } from '../customers/customerStore'
import { deliverInvoiceEmail, type DeliveryAnswer, type EmailDependencies } from '../email/deliverInvoiceEmail'
import { dueAtOf } from '../idempotency/dueAtOf'
import type { IssueDue } from '../idempotency/issueFingerprint'
import type { Polled } from '../idempotency/runIdempotent'
import type { BusinessProfileStore } from '../profile/businessProfileStore'
import { assertProfileComplete } from '../profile/profileIncompleteError'
import { assertActiveServerSigner } from '../signer/activeServerSigner'
import { sendSessionCall, waitForSessionCall, type SessionSignerDependencies } from '../signer/sendSessionCall'
import { IssuedInvoiceNotFoundError, type IssuedInvoiceStore } from './issuedInvoiceStore'

export type IssueDependencies = {
  signer: SessionSignerDependencies
  customers: Pick<CustomerStore, 'getCustomer'>
  profiles: Pick<BusinessProfileStore, 'getBusinessProfile'>
  issued: IssuedInvoiceStore
  metadata: Pick<InvoiceMetadataStore, 'putMetadata' | 'getMetadata'>
  tokens: Pick<AccessTokenStore, 'createToken' | 'getDefaultToken'>
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  invoices: InvoiceReader
  /** The origin payers reach the pay page at; share links are built on it. */
  publicUrl: () => string
  /** Absent: issuance sends no mail, and its answer carries no delivery. */
  email?: EmailDependencies | undefined
}

/** What the merchant asked for (SPEC 4.9), parsed. */
export type IssueInput = { customerId: string; amount: bigint; due: IssueDue; description: string | undefined; sendEmail: boolean }

/** The 200 answer, top-level (SPEC 4.9). JSON only: the idempotency record keeps it to replay. */
export type IssuedAnswer = {
  id: string
  invoiceNumber: string
  amount: string
  status: 'Issued'
  issuedAt: string
  dueAt: string
  userOpHash: Hex
  txHash: Hex
  shareLink: string
  paymentUrl: string
  delivery?: DeliveryAnswer
}

/** What an issuance keeps in its idempotency record: the rest is in its issuance record, by this hash. */
export type IssueWork = { userOpHash: Hex }

export { NoActiveSignerError } from '../signer/activeServerSigner'

const tokenFactsCache = new WeakMap<PublicClient, Promise<{ symbol: string; decimals: number }>>()

/** The token's symbol and decimals, read once: the metadata names them, and they never change. */
function tokenFacts(client: PublicClient, token: Address) {
  let facts = tokenFactsCache.get(client)
  if (!facts) {
    facts = Promise.all([
      client.readContract({ address: token, abi: stablecoinAbi, functionName: 'symbol' }),
      client.readContract({ address: token, abi: stablecoinAbi, functionName: 'decimals' }),
    ]).then(([symbol, decimals]) => ({ symbol, decimals: Number(decimals) }))
    facts.catch(() => tokenFactsCache.delete(client))
    tokenFactsCache.set(client, facts)
  }
  return facts
}

/**
 * Step one of a server-signed issuance (SPEC 4.9): checks what issuing needs (the studio's customer,
 * a complete business profile, a live session for the server's key on the vault, read from the
 * chain), builds the invoice's metadata (2.5) for the registry's next number, records it sealed under
 * the operation's hash, and sends the vault's issueInvoice signed by the session key. Answers the
 * hash once the bundler has the operation. `submissionBegins` runs with the work to keep, right
 * before the operation leaves.
 */
export async function submitIssuance(
  dependencies: IssueDependencies,
  { studio, input, anchor, submissionBegins }: { studio: Studio; input: IssueInput; anchor: Date; submissionBegins: (work: IssueWork, userOpHash?: Hex) => Promise<void> },
): Promise<{ userOpHash: Hex }> {
  const { signer: signing } = dependencies
  const { client, deployment } = signing
  const [customer, profile, block] = await Promise.all([
    dependencies.customers.getCustomer(studio.id, input.customerId),
    dependencies.profiles.getBusinessProfile(studio.id),
    client.getBlock(),
  ])
  if (!customer) throw new HttpError(404, 'NOT_FOUND', 'no customer of this studio has this id', { field: 'customerId' })
  assertProfileComplete(profile)
  await assertActiveServerSigner(signing, studio)
  const dueAt = dueAtOf(input.due, anchor)
  // the registry refuses a due time already past; said here as the field it is
  if (dueAt < block.timestamp) throw new ValidationError([{ path: 'body.dueAt', message: 'the due time has passed: send a time in the future, or dueDays' }])
  const token = { ...(await tokenFacts(client, deployment.token)), address: deployment.token, chainId: deployment.chainId }
  const outcome = await sendSessionCall(signing, {
    studioId: studio.id,
    vault: studio.vaultAddress,
    // inside the vault's turn: no other operation of this instance numbers an invoice meanwhile
    prepare: async ({ blockNumber }) => {
      const issuedBefore = await client.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'merchantInvoiceCount', args: [studio.vaultAddress], blockNumber })
      const invoiceNumber = (BigInt(issuedBefore) + 1n).toString()
      const createdAt = new Date(signing.now())
      // the record's issue day is the day the server signs it; the registry stamps its own block's
      const issuedAt = BigInt(Math.floor(createdAt.getTime() / 1000))
      const metadata = oneLineInvoiceRecord({
        invoiceNumber,
        issuedAt,
        dueAt,
        profile,
        vault: studio.vaultAddress,
        customer,
        token,
        amount: input.amount,
        description: input.description,
        createdBy: 'svc-checkout server signer',
        createdAt,
      })
      const metaHash = hashMetadata(metadata)
      return {
        call: { kind: 'Issue' as const, registry: deployment.registry, token: deployment.token, amount: input.amount, dueAt, metaHash, tokenURI: '' },
        context: { metadata, metaHash, invoiceNumber },
      }
    },
    async beforeSend(userOpHash, { metadata, metaHash, invoiceNumber }) {
      // kept before it leaves: a process killed after sending still finds what it issued
      await dependencies.issued.recordSent({
        userOpHash,
        studioId: studio.id,
        chainId: deployment.chainId,
        registry: deployment.registry,
        customerId: customer.id,
        invoiceNumber,
        amount: input.amount,
        dueAt,
        metaHash: metaHash,
        sendEmail: input.sendEmail,
        metadata: metadata,
      })
      // the hash too: a request that dies while sending leaves an operation to look for on-chain
      await submissionBegins({ userOpHash }, userOpHash)
    },
  })
  return { userOpHash: outcome.userOpHash }
}

/** The invoice the operation issued, from its own logs; none when it carries no InvoiceIssued. */
function issuedInvoiceId(logs: Parameters<typeof parseEventLogs>[0]['logs']): bigint | null {
  const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs })
  return event?.args.id ?? null
}

/**
 * Step two: waits for the operation as long as a request may. `included` with the invoice's id once
 * its InvoiceIssued is on-chain; `pending` before, and also when the operation landed without one
 * (SPEC 7.4.6: no id is ever invented).
 */
export async function pollIssuance(dependencies: IssueDependencies, { userOpHash }: { userOpHash: Hex }): Promise<Polled> {
  const outcome = await waitForSessionCall(dependencies.signer, userOpHash)
  if (outcome.status === 'pending') return { status: 'pending' }
  const invoiceId = issuedInvoiceId(outcome.logs)
  return invoiceId === null ? { status: 'pending' } : { status: 'included', invoiceId, txHash: outcome.txHash }
}

/** The invoice's default share token: the one made before (a finalization run again), else a new one. */
async function defaultToken(tokens: IssueDependencies['tokens'], key: InvoiceKey): Promise<string> {
  const existing = await tokens.getDefaultToken(key)
  if (existing?.token) return existing.token
  try {
    return (await tokens.createToken({ invoice: key, isDefault: true, label: 'share link' })).token
  } catch (error) {
    // another finalization of the same issuance made it meanwhile
    if (!hasCode(error, 'DEFAULT_TOKEN_EXISTS')) throw error
    const made = await tokens.getDefaultToken(key)
    if (!made?.token) throw error
    return made.token
  }
}

/** The issuance's answer as its idempotency record keeps it: without the share link, a bearer
 * credential the token store keeps only sealed. */
export function keptIssuance({ shareLink: _link, paymentUrl: _url, ...kept }: IssuedAnswer): Omit<IssuedAnswer, 'shareLink' | 'paymentUrl'> {
  return kept
}

/** A replayed issuance with the invoice's share link as it stands now: the default link, made anew
 * when the merchant revoked or regenerated the one first answered. */
export async function replayedIssuance(dependencies: IssueDependencies, kept: Omit<IssuedAnswer, 'shareLink' | 'paymentUrl'>): Promise<IssuedAnswer> {
  const invoiceId = BigInt(kept.id)
  const shareLink = shareLinkFor(dependencies.publicUrl(), invoiceId, await defaultToken(dependencies.tokens, dependencies.invoiceKey(invoiceId)))
  return { ...kept, shareLink, paymentUrl: shareLink }
}

/**
 * Step three, once the invoice is on-chain: stores its metadata encrypted under the metaHash the chain
 * holds for it, makes its default share token, sends the customer's mail when asked (once per
 * invoice, whatever the retries), and answers the 200 body. Safe to run again after a failure.
 */
export async function finalizeIssuance(dependencies: IssueDependencies, { userOpHash, invoiceId, txHash }: { userOpHash: Hex; invoiceId: bigint; txHash: Hex }): Promise<IssuedAnswer> {
  const issued = await dependencies.issued.find(userOpHash)
  if (!issued) throw new IssuedInvoiceNotFoundError(`no issuance was recorded for operation ${userOpHash}`)
  const key = dependencies.invoiceKey(invoiceId)
  // read fresh: the reader may remember this id as unknown from a moment before it was issued
  dependencies.invoices.forget(invoiceId)
  const { invoice } = await dependencies.invoices.read(invoiceId)
  if (invoice.metaHash.toLowerCase() !== issued.metaHash.toLowerCase()) {
    throw new IssuedInvoiceMismatchError(`invoice ${invoiceId} commits to another metaHash than the issuance recorded`)
  }
  let metadata = issued.pendingMetadata
  if (metadata) {
    await dependencies.metadata.putMetadata(key, metadata, issued.metaHash)
    await dependencies.issued.markFinalized(userOpHash, { invoiceId, txHash, issuedAt: BigInt(invoice.issuedAt) })
  } else {
    metadata = await dependencies.metadata.getMetadata(key)
    if (!metadata) throw new IssuedInvoiceMismatchError(`invoice ${invoiceId} was finalized but its metadata is missing`)
  }
  const shareLink = shareLinkFor(dependencies.publicUrl(), invoiceId, await defaultToken(dependencies.tokens, key))
  let delivery: DeliveryAnswer | undefined
  if (issued.sendEmail) {
    const { payer } = metadata
    const to = payer.email ?? ''
    delivery = dependencies.email
      ? await deliverInvoiceEmail(dependencies.email, {
          studioId: issued.studioId,
          invoice: key,
          recipient: { customerId: issued.customerId, name: payer.name, email: to, country: payer.address?.country },
          mail: { merchantName: metadata.merchant.name, invoiceNumber: invoice.invoiceNumber, amount: issued.amount, token: { symbol: metadata.token.symbol, decimals: metadata.token.decimals }, dueAt: issued.dueAt, shareLink },
          trigger: 'issuance',
        })
      : { status: 'not_configured', to }
  }
  return {
    id: invoiceId.toString(),
    invoiceNumber: invoice.invoiceNumber,
    amount: invoice.amount,
    status: 'Issued',
    issuedAt: invoice.issuedAt,
    dueAt: invoice.dueAt,
    userOpHash,
    txHash,
    shareLink,
    paymentUrl: shareLink,
    ...(delivery ? { delivery } : {}),
  }
}

/** The chain and the issuance record disagree: nothing is stored for an invoice that is not ours. */
export class IssuedInvoiceMismatchError extends CodedError {
  override name = 'IssuedInvoiceMismatchError'
  readonly code = 'ISSUED_INVOICE_MISMATCH'
}
