import { getAddress, keccak256, slice, stringToHex, type AbiFunction, type AbiParameter, type DecodeAbiParametersReturnType, type Hex } from 'viem'
import { CodedError } from './codedError'

/*
 * Calls whose parameters are all of fixed size (address, bool, uintN, bytes32 and tuples of them), as
 * every chain read before Pay is: each value is one 32-byte word in order, so they are coded here
 * without viem's generic coder, which then loads only with the verifiers (the pay page's size
 * budget). The results are viem's: checksummed addresses, uintN up to 48 bits as numbers, named
 * tuples as objects. A file apart from abiCall.ts, which the verifiers share with the page: a shared
 * module would carry all its exports into the page's chunk. The selector lives here for the same reason.
 */

export type Arguments<fn extends AbiFunction> = DecodeAbiParametersReturnType<fn['inputs']>

/** The canonical type a selector hashes: a tuple is its components' types in parentheses. */
function canonicalType(parameter: AbiParameter): string {
  return 'components' in parameter ? `(${parameter.components.map(canonicalType).join(',')})${parameter.type.slice(5)}` : parameter.type
}

export function callSelector(fn: AbiFunction): Hex {
  return slice(keccak256(stringToHex(`${fn.name}(${fn.inputs.map(canonicalType).join(',')})`)), 0, 4)
}


/** A result that is not the words its fragment declares (too short, or a word out of its type's range). */
export class StaticResultError extends CodedError {
  override name = 'StaticResultError'
  readonly code = 'CALL_RESULT_MALFORMED'
}

const uintBits = (type: string) => (type === 'uint' ? 256 : Number(type.slice(4)))

function encodeWords(parameters: readonly AbiParameter[], values: readonly unknown[]): string {
  return parameters
    .map((parameter, index) => {
      const value = values[index]
      if ('components' in parameter && parameter.type === 'tuple') {
        const record = value as Record<string, unknown>
        return encodeWords(parameter.components, Array.isArray(value) ? value : parameter.components.map((component) => record[component.name!]))
      }
      if (parameter.type === 'address') return (value as string).slice(2).toLowerCase().padStart(64, '0')
      if (parameter.type === 'bool') return (value ? '1' : '0').padStart(64, '0')
      if (parameter.type === 'bytes32' && /^0x[\da-fA-F]{64}$/.test(value as string)) return (value as string).slice(2).toLowerCase()
      const number = BigInt(value as bigint)
      if (parameter.type.startsWith('uint') && number >= 0n && number < 1n << BigInt(uintBits(parameter.type))) return number.toString(16).padStart(64, '0')
      throw new StaticResultError(`${parameter.type} ${String(value)} is not a fixed-size value this coder encodes`)
    })
    .join('')
}

function decodeWords(parameters: readonly AbiParameter[], data: string, at: { word: number }): unknown[] {
  return parameters.map((parameter) => {
    if ('components' in parameter && parameter.type === 'tuple') {
      const values = decodeWords(parameter.components, data, at)
      return parameter.components.every((component) => component.name)
        ? Object.fromEntries(parameter.components.map((component, index) => [component.name, values[index]]))
        : values
    }
    const word = data.slice(at.word * 64, ++at.word * 64)
    if (word.length < 64) throw new StaticResultError(`the result ends before its ${parameter.type} at word ${at.word - 1}`)
    const number = BigInt(`0x${word}`)
    if (parameter.type === 'address' && number >> 160n === 0n) return getAddress(`0x${word.slice(24)}`)
    if (parameter.type === 'bool' && number <= 1n) return number === 1n
    if (parameter.type === 'bytes32') return `0x${word}`
    const bits = parameter.type.startsWith('uint') ? uintBits(parameter.type) : 0
    if (bits && number >> BigInt(bits) === 0n) return bits > 48 ? number : Number(number)
    throw new StaticResultError(`${parameter.type} is not a fixed-size type this coder decodes, or 0x${word} is out of its range`)
  })
}

/** encodeCall for a fragment whose inputs are all of fixed size. */
export function encodeStaticCall<const fn extends AbiFunction>(fn: fn, args: Arguments<fn>): Hex {
  return `${callSelector(fn)}${encodeWords(fn.inputs, args as readonly unknown[])}`
}

/** decodeResult for a fragment whose outputs are all of fixed size. */
export function decodeStaticResult<const fn extends AbiFunction>(
  fn: fn,
  data: Hex,
): fn['outputs'] extends readonly [AbiParameter] ? DecodeAbiParametersReturnType<fn['outputs']>[0] : DecodeAbiParametersReturnType<fn['outputs']> {
  const values = decodeWords(fn.outputs, data.slice(2), { word: 0 })
  return (values.length === 1 ? values[0] : values) as never
}
