import { CodedError } from '../../shared/codedError'

/** A read of the pinned chain got no usable answer from any source the page may read it through. */
export class ChainReadError extends CodedError {
  override name = 'ChainReadError'
  constructor(
    readonly code: 'NO_CHAIN_SOURCE' | 'NO_LATEST_BLOCK',
    message: string,
  ) {
    super(message)
  }
}
