import { concat, decodeAbiParameters, encodeAbiParameters, slice, type AbiFunction, type AbiParameter, type DecodeAbiParametersReturnType, type Hex } from 'viem'
import { CodedError } from './codedError'
import { callSelector, type Arguments } from './staticAbiCall'

/*
 * Calls to one known function fragment. viem's encodeFunctionData and decodeFunctionData look the
 * function up in a whole ABI (overloads, human-readable signatures and their errors): code the wallet
 * bridge's size budget pays for and a payment never uses, since every call here names its one
 * fragment. The parameters are still encoded and decoded by viem.
 */

/** calldata whose selector is not the fragment's: a call to some other function. */
export class CallSelectorError extends CodedError {
  override name = 'CallSelectorError'
  readonly code = 'CALL_SELECTOR_MISMATCH'
}

export function encodeCall<const fn extends AbiFunction>(fn: fn, args: Arguments<fn>): Hex {
  return concat([callSelector(fn), encodeAbiParameters(fn.inputs, args as never)])
}

/** fn's arguments from calldata that calls fn; throws CallSelectorError for any other function. */
export function decodeCall<const fn extends AbiFunction>(fn: fn, data: Hex): Arguments<fn> {
  const selector = slice(data, 0, 4)
  if (selector !== callSelector(fn)) throw new CallSelectorError(`calldata calls ${selector}, not ${fn.name}`)
  return decodeAbiParameters(fn.inputs, slice(data, 4)) as Arguments<fn>
}

/** What a call to fn returned: its one output, or all of them when it has several. */
export function decodeResult<const fn extends AbiFunction>(
  fn: fn,
  data: Hex,
): fn['outputs'] extends readonly [AbiParameter] ? DecodeAbiParametersReturnType<fn['outputs']>[0] : DecodeAbiParametersReturnType<fn['outputs']> {
  const values = decodeAbiParameters(fn.outputs, data)
  return (values.length === 1 ? values[0] : values) as never
}

