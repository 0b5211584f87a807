import { readOwnedInvoice } from '../../auth/readOwnedInvoice'
import type { Principal } from '../../auth/principal'
import type { InvoiceReader } from '../../chain/invoiceReader'
import { HttpError } from '../../http/httpError'
import { invoiceIdParams } from '../../http/validate'
import { apiRoute } from '../../routes/apiRoute'
import { invoicesLimit } from '../../routes/invoiceShareRoutes'
import { shareLinkFor } from '../../../shared/shareLink'
import type { AccessTokenStore } from '../../store/accessTokenStore'
import type { InvoiceKey } from '../../store/invoiceKey'
import type { InvoiceMetadataStore } from '../../store/invoiceMetadataStore'
import { deliverInvoiceEmail, type EmailDependencies, type MailRecipient } from './deliverInvoiceEmail'
import { sendEmailRequestSchema, sendEmailResponseSchema } from './emailWire'

export type SendEmailDependencies = EmailDependencies & {
  invoices: InvoiceReader
  chainId: number
  metadata: Pick<InvoiceMetadataStore, 'getMetadata'>
  tokens: Pick<AccessTokenStore, 'getDefaultToken'>
  invoiceKey: (invoiceId: bigint) => InvoiceKey
  publicUrl: () => string
  /** The studio's customer (deleted ones are none); absent until the server keeps customers. */
  customer?: (studioId: string, customerId: string) => Promise<MailRecipient | null>
  /** The customer an invoice was issued to (server-signed issuance records it); absent until it does. */
  issuedCustomer?: (invoice: InvoiceKey) => Promise<string | null>
}

export type SendEmailRoutesDependencies = { email?: SendEmailDependencies }

function emailOf(dependencies: SendEmailRoutesDependencies): SendEmailDependencies {
  if (!dependencies.email) throw new Error('the email routes are mounted without their dependencies')
  return dependencies.email
}

/**
 * Who the invoice's mail goes to. The customer it was issued to, which a customerId in the body must
 * name (SPEC 4.11: checked against the invoice's customer); else the customerId given, which must be
 * the studio's; else the billing party the invoice's own metadata names, if it has an email.
 */
async function recipientOf(email: SendEmailDependencies, principal: Principal, key: InvoiceKey, payer: { name: string; email?: string | undefined; address?: { country: string } | undefined }, customerId: string | undefined): Promise<MailRecipient> {
  const issuedTo = (await email.issuedCustomer?.(key)) ?? null
  if (customerId && issuedTo && customerId !== issuedTo) {
    throw new HttpError(400, 'CUSTOMER_MISMATCH', 'the invoice was issued to another customer: send without customerId, or with the id of the customer it was issued to')
  }
  const wanted = customerId ?? issuedTo
  if (wanted && email.customer) {
    const customer = await email.customer(principal.studio.id, wanted)
    if (!customer) throw new HttpError(404, 'NOT_FOUND', 'no customer with this id in your studio (a deleted customer gets no mail)')
    return customer
  }
  if (!payer.email) throw new HttpError(400, 'NO_RECIPIENT', "the invoice's billing details name no email: send with the customerId of the customer to mail")
  return { customerId: wanted, name: payer.name, email: payer.email, country: payer.address?.country }
}

const emailRoute = apiRoute<SendEmailRoutesDependencies>()

/** SPEC 4.11: the invoice's mail to its customer, sent again on the merchant's request. */
export const sendEmailRoutes = [
  emailRoute({
    method: 'post',
    path: '/v1/invoices/:id/send-email',
    summary: "Mail the invoice's share link to its customer",
    description:
      "Issued invoices only. The mail names the merchant, the invoice number, the amount, the due date and the invoice's share link, in the customer's language where its country gives one. The delivery is its own outcome: `failed` is an answer, and `not_configured` means this server has no SMTP server.",
    auth: 'merchant',
    cors: 'none',
    rateLimits: [invoicesLimit],
    scope: 'invoice:write',
    params: invoiceIdParams,
    body: sendEmailRequestSchema,
    bodyOptional: true,
    response: { status: 200, schema: sendEmailResponseSchema, description: 'What became of the mail.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_STATUS', 'CUSTOMER_MISMATCH', 'NO_RECIPIENT', 'NO_INVOICE_METADATA', 'NO_SHARE_LINK', 'EMAIL_REQUEST_LIMIT'],
    async handle({ params: { id }, body }, dependencies, c) {
      const email = emailOf(dependencies)
      const principal = c.get('principal')
      const invoice = await readOwnedInvoice(email.invoices, email.chainId, principal, id)
      if (invoice.status !== 'Issued') throw new HttpError(400, 'INVALID_STATUS', `the invoice is ${invoice.status}: only an Issued invoice is mailed`)
      const key = email.invoiceKey(id)
      const [metadata, current] = await Promise.all([email.metadata.getMetadata(key), email.tokens.getDefaultToken(key)])
      if (!metadata) throw new HttpError(409, 'NO_INVOICE_METADATA', 'the invoice has no billing details on this server (it was not issued through it): there is nothing to mail')
      if (!current?.token) throw new HttpError(409, 'NO_SHARE_LINK', 'the invoice has no share link to send: make one with POST /v1/invoices/:id/share/regenerate')
      const recipient = await recipientOf(email, principal, key, metadata.payer, body.customerId)
      const delivery = await deliverInvoiceEmail(email, {
        studioId: principal.studio.id,
        invoice: key,
        recipient,
        mail: {
          merchantName: metadata.merchant.name,
          invoiceNumber: metadata.invoiceNumber,
          amount: BigInt(invoice.amount),
          token: { symbol: metadata.token.symbol, decimals: metadata.token.decimals },
          dueAt: BigInt(invoice.dueAt),
          shareLink: shareLinkFor(email.publicUrl(), id, current.token),
        },
        trigger: 'request',
      })
      return { delivery }
    },
  }),
]
