import type { PublicClient } from 'viem'
import type { Deployment } from '../../shared/deployment'
import type { Bundler } from '../chain/bundler'
import type { InvoiceReader } from '../chain/invoiceReader'
import type { Sponsor } from '../chain/sponsor'
import type { PaymentStore } from '../store/paymentStore'
import type { RegisteredMerchant } from './registeredMerchant'
import type { SponsorshipLimiter } from './sponsorshipLimiter'

/** SPONSORSHIP_WINDOW_SECONDS' default: long enough to read, approve in a wallet and be included;
 * short enough that a held-back operation is soon worthless. */
export const defaultSponsorshipWindowSeconds = 900

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
  /** The longest a sponsorship lasts (it never outlasts the permit); default 900. */
  sponsorshipWindowSeconds?: number
  /** Bounds live sponsored operations per invoice, owner and client; absent, nothing is counted. */
  sponsorships?: SponsorshipLimiter
  /** Whether an invoice's merchant is a studio of this server: only their invoices are sponsored. */
  registeredMerchant: RegisteredMerchant
}
