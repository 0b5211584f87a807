import { useCallback, useEffect, useState } from 'preact/hooks'
import type { InvoiceDocument, PayApi } from '../../api/createPayApi'
import { apiAnswerOf } from '../../api/apiError'
import type { DocumentLoad } from './documentLoad'

/** Loads the invoice with its decrypted metadata, unless the page was `served` with it; `reload` tries
 * again after a failure. The record as received: the views show its text with hidden characters made
 * visible (readableMetadata.ts), as the server's rendering does. */
export function useInvoiceDocument(api: PayApi, invoiceId: string | null, token: string | null, served: InvoiceDocument | null = null): [DocumentLoad, () => void] {
  const [load, setLoad] = useState<DocumentLoad>(() => (served ? { status: 'loaded', document: served } : invoiceId ? { status: 'loading' } : { status: 'failed', notFound: true }))
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (!invoiceId || (served && attempt === 0)) return
    let current = true
    setLoad({ status: 'loading' })
    api.getDocument(invoiceId, token).then(
      (document) => current && setLoad({ status: 'loaded', document }),
      (error: unknown) => current && setLoad({ status: 'failed', notFound: apiAnswerOf(error)?.status === 404 }),
    )
    return () => {
      current = false
    }
  }, [api, invoiceId, token, served, attempt])
  return [load, useCallback(() => setAttempt((n) => n + 1), [])]
}
