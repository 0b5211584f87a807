import { Hono } from 'hono'
import { getAddress } from 'viem'
import * as z from 'zod/mini'
import type { InvoiceMetadata } from '../../src/shared/metadata'
import { ecrecoverV } from '../../src/shared/permit'
import { permitRequestSchema, prepareRequestSchema, submitRequestSchema } from '../../src/shared/wire'
import { HttpError } from '../http/httpError'
import { invoiceIdParam, jsonBody, validate } from '../http/validate'
import type { PayContext } from '../payments/payContext'
import { preparePayment } from '../payments/preparePayment'
import { requestPermit } from '../payments/requestPermit'
import { submitPayment } from '../payments/submitPayment'
import { invoicePdf } from '../pdf/invoicePdf'

/** Opens an invoice's metadata with an access token; null for a missing, wrong, expired or revoked one alike. */
export type MetadataAccess = { open(invoiceId: bigint, token: string): Promise<InvoiceMetadata | null> }

const tokenQuery = z.optional(z.string())

/** An overlong token is simply not a valid one: it opens nothing, like any other wrong token. */
function opener(metadata: MetadataAccess) {
  return async (id: bigint, token: string | undefined) => (token && token.length <= 200 ? metadata.open(id, token) : null)
}

/** GET /v1/pay/:id/metadata's answer (SPEC 4.14), which the pay page is also first rendered with. */
export function invoiceDocument(context: PayContext, metadata: MetadataAccess) {
  const open = opener(metadata)
  return async (id: bigint, token: string | undefined) => {
    const [{ invoice }, opened] = await Promise.all([context.invoices.read(id), open(id, token)])
    return { success: true as const, accessLevel: opened ? ('full' as const) : ('onchain_only' as const), data: invoice, metadata: opened }
  }
}

/** SPEC 4.14 rule 4 allows any v up to 255: a y-parity bit is taken as the 27 or 28 the token recovers with. */
function recoverable<S extends { v: number }>(signature: S): S {
  return { ...signature, v: ecrecoverV(signature.v) }
}

/** SPEC 4.14: the public pay routes. No credentials: a payment is authorised by the payer's signatures. */
export function payRoutes(context: PayContext, metadata: MetadataAccess) {
  const app = new Hono()

  const openMetadata = opener(metadata)

  app.get('/:id', async (c) => {
    const { invoice, blockNumber } = await context.invoices.read(invoiceIdParam(c))
    return c.json({ success: true, data: invoice, metadata: { chainId: context.deployment.chainId, blockNumber: blockNumber.toString() } })
  })

  app.get('/:id/metadata', async (c) => {
    const document = await invoiceDocument(context, metadata)(invoiceIdParam(c), validate(tokenQuery, c.req.query('token'), 'token'))
    c.header('Cache-Control', 'no-store')
    return c.json(document)
  })

  app.get('/:id/pdf', async (c) => {
    const id = invoiceIdParam(c)
    const token = validate(tokenQuery, c.req.query('token'), 'token')
    if (!token) throw new HttpError(400, 'TOKEN_REQUIRED', 'the PDF needs the invoice access token from the share link')
    const [{ invoice }, opened] = await Promise.all([context.invoices.read(id), openMetadata(id, token)])
    // unlike /metadata, which then falls back to the on-chain record, the document needs the token: a
    // wrong, expired or revoked one is a credential failure (SPEC 7.2), told apart from a missing invoice
    if (!opened) throw new HttpError(401, 'UNAUTHORIZED', 'the access token is invalid, expired or revoked: ask the merchant for a current share link')
    const pdf = await invoicePdf(invoice, opened)
    const filename = `invoice-${opened.invoiceNumber.replace(/[^\w.-]/g, '_')}.pdf`
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
    })
  })

  app.post('/:id/permit', async (c) => {
    const invoiceId = invoiceIdParam(c)
    const body = await jsonBody(c, permitRequestSchema)
    const permitDeadline = body.permitDeadline === undefined ? undefined : BigInt(body.permitDeadline)
    const result = await requestPermit(context, {
      invoiceId,
      payerAddress: getAddress(body.payerAddress),
      permitDeadline,
      fundingFrom: body.fundingFrom && getAddress(body.fundingFrom),
    })
    return c.json({ success: true, ...result })
  })

  app.post('/:id/prepare', async (c) => {
    const invoiceId = invoiceIdParam(c)
    const { payerAddress, ownerAddress, permit, funding } = await jsonBody(c, prepareRequestSchema)
    const result = await preparePayment(context, {
      invoiceId,
      payerAddress: getAddress(payerAddress),
      ownerAddress: getAddress(ownerAddress),
      permit: { ...recoverable(permit), deadline: BigInt(permit.deadline) },
      funding: funding && {
        from: getAddress(funding.from),
        amount: BigInt(funding.amount),
        permit: { ...recoverable(funding.permit), deadline: BigInt(funding.permit.deadline) },
      },
    })
    return c.json({ success: true, ...result })
  })

  app.post('/:id', async (c) => {
    const invoiceId = invoiceIdParam(c)
    const { userOp, permitSignature } = await jsonBody(c, submitRequestSchema)
    const result = await submitPayment(context, { invoiceId, userOp, permitSignature: permitSignature && recoverable(permitSignature) })
    return c.json(result, result.status === 'confirmed' ? 200 : 202)
  })

  return app
}
