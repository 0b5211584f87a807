import { useCallback, useEffect, useState } from 'preact/hooks'
import type { InvoiceDocument, PayApi } from '../../api/createPayApi'
import { apiAnswerOf } from '../../api/apiError'
import type { DocumentLoad } from './documentLoad'
import { readableMetadata } from './metadataVerdict'

/** The document as every view shows it: the merchant's text with hidden characters made visible. */
function loaded(document: InvoiceDocument): DocumentLoad {
  return { status: 'loaded', document: document.metadata ? { ...document, metadata: readableMetadata(document.metadata) } : document }
}

/** Loads the invoice with its decrypted metadata, unless the page was `served` with it; `reload` tries
 * again after a failure. */
export function useInvoiceDocument(api: PayApi, invoiceId: string | null, token: string | null, served: InvoiceDocument | null = null): [DocumentLoad, () => void] {
  const [load, setLoad] = useState<DocumentLoad>(() => (served ? loaded(served) : invoiceId ? { status: 'loading' } : { status: 'failed', notFound: true }))
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (!invoiceId || (served && attempt === 0)) return
    let current = true
    setLoad({ status: 'loading' })
    api.getDocument(invoiceId, token).then(
      (document) => current && setLoad(loaded(document)),
      (error: unknown) => current && setLoad({ status: 'failed', notFound: apiAnswerOf(error)?.status === 404 }),
    )
    return () => {
      current = false
    }
  }, [api, invoiceId, token, served, attempt])
  return [load, useCallback(() => setAttempt((n) => n + 1), [])]
}
