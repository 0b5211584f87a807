import { CodedError } from '../../src/shared/codedError'

/** The command line does not say what to do; the message says what is wrong. */
export class UsageError extends CodedError {
  override name = 'UsageError'
  readonly code = 'USAGE'
}
