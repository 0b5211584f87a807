import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CodedError } from '../shared/codedError'

/** The command line does not say what to do; the message says what is wrong. */
export class UsageError extends CodedError {
  override name = 'UsageError'
  readonly code = 'USAGE'
}

/** `--help` or `-h` anywhere before a lone `--`: the tool prints its usage and does nothing else. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')
}

/** node:util's parseArgs, its errors said in the tool's words: which flag, and what it wants. */
export function parseFlags(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): Record<string, unknown> {
  try {
    return parseArgs({ args: [...args], options, strict: true }).values
  } catch (error) {
    const message = error instanceof Error ? error.message : ''
    const quoted = /'(-[^' ]+)/.exec(message)?.[1] ?? /'([^']+)'/.exec(message)?.[1] ?? ''
    switch ((error as { code?: unknown }).code) {
      case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
        throw new UsageError(`${quoted}: unknown flag (--help lists them)`)
      case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
        throw new UsageError(message.includes('does not take') ? `${quoted}: takes no value` : `${quoted}: missing its value`)
      case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
        throw new UsageError(`${quoted}: unexpected argument (flags start with --)`)
      default:
        throw new UsageError(message || 'unreadable arguments')
    }
  }
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
