import { CodedError } from '../shared/codedError'

/** The command line does not say what to do; the message says what is wrong. */
export class UsageError extends CodedError {
  override name = 'UsageError'
  readonly code = 'USAGE'
}

/** The parsed command, or null once what is wrong and the usage are printed (the tool exits 2). */
export function commandOrUsage<T>(parse: () => T, usage: string): T | null {
  try {
    return parse()
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`${error.message}\n${usage}`)
    return null
  }
}
