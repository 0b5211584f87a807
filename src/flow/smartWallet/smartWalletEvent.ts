import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { CallsStatus } from '../../wallet/readCallsStatus'
import type { SmartPayer } from './smartWalletState'

/** What the work of a one-prompt payment found out; `at` is the clock (ms since the epoch). */
export type SmartWalletOutcome =
  /** Connected: the wallet can pay in one prompt and the account holds the amount. `check` is the
   * invoice held to the chain, as for the vault flow. */
  | { type: 'smartPayerResolved'; payer: SmartPayer; check: CheckInvoiceReturnType }
  | { type: 'callsSent'; callsId: string; at: number }
  /** One look at the batch: the wallet's word on it and the invoice as the chain has it. */
  | { type: 'callsRead'; wallet: CallsStatus; check: CheckInvoiceReturnType; at: number }
  /** The stranded vault's token balance as the chain has it now; null when the read failed. */
  | { type: 'vaultRead'; balance: bigint | null; at: number }
