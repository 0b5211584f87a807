import type { InvoiceDocument } from '../../api/createPayApi'

/** The decrypted invoice as the page has it so far. */
export type DocumentLoad =
  | { status: 'loading' }
  | { status: 'loaded'; document: InvoiceDocument }
  | { status: 'failed'; notFound: boolean }
