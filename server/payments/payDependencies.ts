import type { PublicClient } from 'viem'
import type { Deployment } from '../../shared/deployment'
import type { Bundler } from '../chain/bundler'
import type { InvoiceReader } from '../chain/invoiceReader'
import type { Sponsor } from '../chain/sponsor'
import type { PaymentStore } from '../store/paymentStore'

/** What the pay flow runs on. `now` is wall-clock milliseconds, injectable so expiry can be tested. */
export type PayDependencies = {
  client: PublicClient
  deployment: Deployment
  invoices: InvoiceReader
  sponsor: Sponsor
  bundler: Bundler
  payments: PaymentStore
  now: () => number
  /** How long a submit waits for the receipt before answering pending. */
  submitWaitMs: number
  /** How often receipts are polled while waiting. */
  receiptPollMs: number
}
