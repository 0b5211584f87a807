import { ContractFunctionRevertedError } from 'viem'
import { CodedError, walkCauses } from '../../shared/codedError'

/** The chain could not be reached or answered nonsense: the caller may retry (SPEC 7.2: 502/503). */
export class ChainUnavailableError extends CodedError {
  override name = 'ChainUnavailableError'
  readonly code = 'CHAIN_UNAVAILABLE'
}

/** The contract revert inside a failed call, however deep viem or our own wrappers put it: the one
 * place the chain layer looks inside an error. */
export function revertOf(error: unknown): ContractFunctionRevertedError | undefined {
  return walkCauses(error, (cause) => cause instanceof ContractFunctionRevertedError)
}

/** The name of the custom error a contract reverted with, or undefined for any other failure. */
export function revertName(error: unknown): string | undefined {
  return revertOf(error)?.data?.errorName
}
