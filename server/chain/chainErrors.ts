import { CodedError } from '../../shared/codedError'
import { BaseError, ContractFunctionRevertedError } from 'viem'

/** The chain could not be reached or answered nonsense: the caller may retry (SPEC 7.2: 502/503). */
export class ChainUnavailableError extends CodedError {
  override name = 'ChainUnavailableError'
  readonly code = 'CHAIN_UNAVAILABLE'
}

/** The name of the custom error a contract reverted with, or undefined for any other failure. */
export function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined
}
