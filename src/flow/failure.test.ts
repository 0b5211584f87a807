import { UserRejectedRequestError } from 'viem'
import { describe, expect, test } from 'vitest'
import { ApiError } from '../api/apiError'
import { WalletError } from '../wallet/walletError'
import { ChainUnreadableError, toFailure } from './failure'

describe('toFailure', () => {
  test('default: keeps what an ApiError says, not its prose', () => {
    const error = new ApiError({ status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfter: 12 })
    expect(toFailure(error)).toEqual({ kind: 'api', status: 429, code: 'RATE_LIMITED', retryAfter: 12 })
    expect(toFailure(new ApiError({ status: 503, code: 'UNAVAILABLE', message: 'down' }))).toEqual({
      kind: 'api',
      status: 503,
      code: 'UNAVAILABLE',
      retryAfter: null,
    })
  })

  test('behavior: a code this page does not know, however long or marked up, becomes UNKNOWN_ERROR: the service\'s words are never carried on', () => {
    for (const code of ['X'.repeat(20_000), '<b>PAID ✓ Payment received</b>', 'permit_expired', '']) {
      expect(toFailure(new ApiError({ status: 400, code, message: 'PAID ✓ You can close this page' }))).toEqual({ kind: 'api', status: 400, code: 'UNKNOWN_ERROR', retryAfter: null })
    }
    expect(toFailure(new ApiError({ status: 409, code: 'PERMIT_EXPIRED', message: '' }))).toMatchObject({ code: 'PERMIT_EXPIRED' })
  })

  test('behavior: recognises an EIP-1193 rejection however deeply it is wrapped', () => {
    expect(toFailure({ code: 4001, message: 'User rejected' })).toEqual({ kind: 'rejected' })
    expect(toFailure(new UserRejectedRequestError(new Error('no')))).toEqual({ kind: 'rejected' })
    expect(toFailure(new Error('connector', { cause: new Error('provider', { cause: { code: 4001 } }) }))).toEqual({ kind: 'rejected' })
  })

  test('behavior: MetaMask mobile\'s rejection, 4001 nested under data.originalError, is "declined", not a wallet failure', () => {
    const mobile = { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: { code: 4001, message: 'User rejected the request.' } } }
    expect(toFailure(mobile)).toEqual({ kind: 'rejected' })
    expect(toFailure(new Error('wagmi', { cause: mobile }))).toEqual({ kind: 'rejected' })
  })

  test('behavior: anything else is unknown', () => {
    expect(toFailure(new TypeError('fetch failed'))).toEqual({ kind: 'unknown' })
    expect(toFailure({ code: 4902 })).toEqual({ kind: 'unknown' })
    expect(toFailure(undefined)).toEqual({ kind: 'unknown' })
  })

  test('behavior: an ApiError is an Error with its name', () => {
    const error = new ApiError({ status: 409, code: 'PERMIT_EXPIRED', message: 'expired' })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('ApiError')
    expect(error.message).toBe('expired')
    expect('retryAfter' in error).toBe(false)
  })

  test('behavior: decides by code and details, not by which class carries them', () => {
    expect(toFailure(new ChainUnreadableError('no read'))).toEqual({ kind: 'chainUnreadable' })
    expect(toFailure(new WalletError('WALLET_NOT_CONNECTED', 'connect a wallet first'))).toEqual({ kind: 'unknown' })
    expect(toFailure(new WalletError('SIGNATURE_MALFORMED', 'sign again'))).toEqual({ kind: 'unknown' })
  })
})
