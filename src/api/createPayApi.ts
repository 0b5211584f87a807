import type * as z from 'zod/mini'
import {
  invoiceResponseSchema,
  metadataResponseSchema,
  type permitRequestSchema,
  permitResponseSchema,
  type prepareRequestSchema,
  prepareResponseSchema,
  type submitRequestSchema,
  submitResponseSchema,
  type WireInvoice,
} from '../../shared/wire'
import type { InvoiceMetadata } from '../../shared/metadata'
import { requestJson } from './requestJson'

export type PermitRequest = z.infer<typeof permitRequestSchema>
export type PermitResponse = z.infer<typeof permitResponseSchema>
export type PrepareRequest = z.infer<typeof prepareRequestSchema>
export type SubmitRequest = z.infer<typeof submitRequestSchema>
export type SubmitResponse = z.infer<typeof submitResponseSchema>
export type PrepareResponse = z.infer<typeof prepareResponseSchema>

/** SPEC 4.14. Each throws ApiError for anything but success. */
export type PaymentApi = {
  getInvoice(id: string): Promise<WireInvoice>
  requestPermit(id: string, request: PermitRequest): Promise<PermitResponse>
  prepare(id: string, request: PrepareRequest): Promise<PrepareResponse>
  submit(id: string, request: SubmitRequest): Promise<SubmitResponse>
}

export type InvoiceDocument = { accessLevel: 'full' | 'onchain_only'; invoice: WireInvoice; metadata: InvoiceMetadata | null }

/** GET /v1/pay/:id/metadata's answer, as the page uses it. */
export function invoiceDocumentOf({ accessLevel, data, metadata }: z.infer<typeof metadataResponseSchema>): InvoiceDocument {
  return { accessLevel, invoice: data, metadata }
}

export type PayApi = PaymentApi & {
  /** The invoice with its decrypted metadata when `token` opens it (SPEC 4.14 rule 5). */
  getDocument(id: string, token: string | null): Promise<InvoiceDocument>
  pdfUrl(id: string, token: string): string
}

export type CreatePayApiParameters = {
  /** Any SPEC-conformant service; '' is the page's own origin. */
  baseUrl?: string
  fetch?: typeof globalThis.fetch
  /** Longer than the server waits for a receipt before it answers 202 pending. */
  timeoutMs?: number
}

/** The public pay routes of SPEC 4.14, and nothing else. */
export function createPayApi({ baseUrl = '', fetch = globalThis.fetch.bind(globalThis), timeoutMs = 60_000 }: CreatePayApiParameters = {}): PayApi {
  const base = baseUrl.replace(/\/+$/, '')
  const path = (id: string, suffix = '') => `${base}/v1/pay/${encodeURIComponent(id)}${suffix}`
  const call = { fetch, timeoutMs }
  return {
    async getInvoice(id) {
      return (await requestJson({ ...call, url: path(id), schema: invoiceResponseSchema })).data
    },
    async getDocument(id, token) {
      const query = token ? `?token=${encodeURIComponent(token)}` : ''
      return invoiceDocumentOf(await requestJson({ ...call, url: path(id, `/metadata${query}`), schema: metadataResponseSchema }))
    },
    pdfUrl: (id, token) => path(id, `/pdf?token=${encodeURIComponent(token)}`),
    requestPermit: (id, body) => requestJson({ ...call, url: path(id, '/permit'), body, schema: permitResponseSchema }),
    prepare: (id, body) => requestJson({ ...call, url: path(id, '/prepare'), body, schema: prepareResponseSchema }),
    submit: (id, body) => requestJson({ ...call, url: path(id), body, schema: submitResponseSchema }),
  }
}
