import { CodedError, type ErrorDetails } from '../../shared/codedError'

/**
 * Why the paymaster service will not sponsor an operation. Answered as a JSON-RPC error whose `data`
 * carries the code: a wallet (or its user) reads why, and nothing was signed.
 */
export type PaymasterRefusal =
  /** The request names a chain this service does not sponsor on. */
  | 'UNSUPPORTED_CHAIN'
  /** The request names an EntryPoint this service has no paymaster on. */
  | 'UNSUPPORTED_ENTRY_POINT'
  /** The callData is not a batch of an account kind the service decodes. */
  | 'UNKNOWN_ACCOUNT_KIND'
  /** More than the approval (or permit) and the payment. */
  | 'EXTRA_CALL'
  /** Fewer than the approval (or permit) and the payment. */
  | 'MISSING_CALL'
  /** A call sends ether. */
  | 'CALL_VALUE'
  /** The second call is not the registry's `pay`. */
  | 'NOT_REGISTRY_PAY'
  /** The first call is not the token's `approve` or `permit`. */
  | 'NOT_TOKEN_APPROVAL'
  /** The approval is of another token than the invoice's. */
  | 'TOKEN_MISMATCH'
  /** The approval names another spender than the registry. */
  | 'SPENDER_MISMATCH'
  /** The approval is for another amount than the invoice's. */
  | 'AMOUNT_MISMATCH'
  /** The permit is signed for another owner than the sender, or does not verify. */
  | 'PERMIT_INVALID'
  | 'PERMIT_EXPIRED'
  | 'PERMIT_DEADLINE_TOO_FAR'
  /** The invoice's token is not the one this deployment sponsors, or the registry no longer accepts it. */
  | 'TOKEN_NOT_SUPPORTED'
  | 'INVOICE_NOT_FOUND'
  /** The invoice pays someone who is not a merchant of this server: only its merchants' invoices are sponsored. */
  | 'MERCHANT_NOT_REGISTERED'
  /** The operation's nonce is not the one the EntryPoint expects of the sender now (getNonce for its key):
   * an operation that cannot run yet is not signed for, or the sender could hold many at once. */
  | 'NONCE_NOT_CURRENT'
  /** Paid or Canceled. */
  | 'INVALID_STATUS'
  | 'INSUFFICIENT_BALANCE'
  /** A gas field above what the service pays for. */
  | 'GAS_LIMIT_TOO_HIGH'
  /** pm_getPaymasterData without the final gas fields (they are signed). */
  | 'GAS_FIELDS_MISSING'
  /** A tip above twice what the chain asks now: a bundler's pay, from the deposit. */
  | 'FEE_TOO_HIGH'
  /** The account's validateUserOp reverts with the wallet's placeholder signature: its cost cannot be
   * measured, and a bundler could not estimate it either. */
  | 'VALIDATION_REVERTS'
  /** The account's code, run as the EntryPoint would run it, does not pay the invoice (it reverts, pays
   * nothing, or leaves an allowance behind), whatever its callData says. */
  | 'EXECUTION_DOES_NOT_PAY'
  /** The chain's RPC cannot simulate (eth_simulateV1): nothing is sponsored that was not run first. */
  | 'SIMULATION_UNAVAILABLE'
  /** This server has no paymaster signer (it uses another paymaster service): it sponsors nothing. */
  | 'PAYMASTER_SERVICE_OFF'

export class PaymasterRefusedError extends CodedError {
  override name = 'PaymasterRefusedError'
  constructor(
    readonly code: PaymasterRefusal,
    message: string,
    details?: ErrorDetails,
  ) {
    super(message, details ? { details } : {})
  }
}
