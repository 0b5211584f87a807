import { CodedError } from '../../shared/codedError'

export type WalletErrorCode =
  | 'WALLET_NOT_CHOSEN'
  | 'WALLET_NOT_CONNECTED'
  | 'WALLET_GONE'
  | 'WALLET_NO_ACCOUNT'
  | 'CHAIN_NOT_PINNED'
  | 'SIGNATURE_MALFORMED'
  | 'DEVNET_WALLET_UNAVAILABLE'

/** The payer's wallet could not do what the step needs. The page words each code for the payer; the
 * message, for the console and a bug report, says what happened and what to try. */
export class WalletError extends CodedError {
  override name = 'WalletError'
  constructor(
    readonly code: WalletErrorCode,
    message: string,
  ) {
    super(message)
  }
}
