import { CodedError } from '../shared/codedError'

/** The devnet cannot start as asked: the message says what differs and what to change. */
export class DevnetError extends CodedError {
  override name = 'DevnetError'
  constructor(
    readonly code: 'DEVNET_DATABASE_IN_USE' | 'DEVNET_DIFFERS_FROM_PINNED' | 'DEVNET_KEY_MISSING' | 'DEVNET_SEED_FAILED' | 'STOREFRONT_WEBHOOK_NOT_REGISTERED',
    message: string,
  ) {
    super(message)
  }
}
