import { BaseError, ContractFunctionRevertedError, HttpRequestError } from 'viem'
import { describe, expect, test } from 'vitest'
import { CodedError, hasCode, walkCauses } from './codedError'

class OutageError extends CodedError {
  override name = 'OutageError'
  readonly code = 'OUTAGE'
}

const rpcFailure = () => new BaseError('the call failed', { cause: new HttpRequestError({ url: 'http://rpc.test', status: 502 }) })

describe('CodedError', () => {
  test('default: keeps its code, message, details and cause', () => {
    const cause = new Error('socket hang up')
    const error = new OutageError('the chain is unavailable: try again shortly', { cause, details: { attempts: 3 } })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('OutageError')
    expect(error.code).toBe('OUTAGE')
    expect(error.message).toBe('the chain is unavailable: try again shortly')
    expect(error.details).toEqual({ attempts: 3 })
    expect(error.cause).toBe(cause)
  })

  test('behavior: no cause and no details are absent, not wrapped', () => {
    const error = new OutageError('down')
    expect('cause' in error).toBe(false)
    expect(error.details).toBeUndefined()
  })

  test('behavior: walk() returns the innermost cause, through viem errors too', () => {
    const viem = rpcFailure()
    const error = new OutageError('the chain did not answer', { cause: viem })
    expect(error.walk()).toBeInstanceOf(HttpRequestError)
    expect(new OutageError('alone').walk()).toBeInstanceOf(OutageError)
  })

  test('behavior: walk(predicate) returns the first match from the error itself inward, else undefined', () => {
    const revert = new ContractFunctionRevertedError({ abi: [], functionName: 'pay' })
    const error = new OutageError('outer', { cause: new OutageError('inner', { cause: new BaseError('viem', { cause: revert }) }) })
    expect(error.walk((cause) => cause instanceof OutageError)).toBe(error)
    expect(error.walk((cause) => cause instanceof ContractFunctionRevertedError)).toBe(revert)
    expect(error.walk((cause) => cause instanceof HttpRequestError)).toBeUndefined()
  })

  test('behavior: walkCauses stops on a cycle of causes and takes any thrown value', () => {
    const a = new Error('a')
    const b = new Error('b', { cause: a })
    Object.assign(a, { cause: b })
    expect(walkCauses(b, (cause) => cause === 'never')).toBeUndefined()
    expect(walkCauses('a string')).toBe('a string')
    expect(walkCauses(undefined, (cause) => cause === undefined)).toBeUndefined()
  })

  test('behavior: hasCode decides by code, whichever class carries it', () => {
    expect(hasCode(new OutageError('down'), 'OUTAGE')).toBe(true)
    expect(hasCode(new OutageError('down'), 'OTHER')).toBe(false)
    expect(hasCode(Object.assign(new Error('plain'), { code: 'OUTAGE' }), 'OUTAGE')).toBe(false)
  })
})
