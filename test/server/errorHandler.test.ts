import { Hono } from 'hono'
import { BaseError } from 'viem'
import { describe, expect, test } from 'vitest'
import { AuthenticationError } from '../../server/auth/authErrors'
import { BundlerUnavailableError } from '../../server/chain/bundler'
import { InvoiceNotFoundError } from '../../server/chain/invoiceReader'
import { answers, errorCode, errorHandler } from '../../server/http/errorHandler'
import { HttpError } from '../../server/http/httpError'
import { silentLogger } from '../../server/http/logger'
import { PaymentRefusedError, type PaymentRefusal } from '../../server/payments/paymentRefusedError'
import { CodedError } from '../../shared/codedError'

/** The answer a route that throws `error` gets: no server, no chain. */
async function answerTo(error: unknown) {
  const app = new Hono()
  app.onError(errorHandler(silentLogger))
  app.get('/', () => {
    throw error
  })
  const response = await app.request('/')
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('errorHandler', () => {
  test('behavior: a domain code is answered with its status from the one table, details in the body', async () => {
    const error = new PaymentRefusedError('TRANSACTION_FAILED', 'the payment was included but reverted', { userOpHash: '0x01', txHash: '0x02' })
    expect(await answerTo(error)).toMatchObject({
      status: 400,
      body: { error: 'TRANSACTION_FAILED', code: 'TRANSACTION_FAILED', message: 'the payment was included but reverted', userOpHash: '0x01', txHash: '0x02' },
    })
    expect((await answerTo(new PaymentRefusedError('PERMIT_EXPIRED', 'request a new permit'))).status).toBe(409)
  })

  test('behavior: details never stand in for the answer\'s error, code or message', async () => {
    const error = new PaymentRefusedError('TRANSACTION_FAILED', 'the payment was included but reverted', { code: 'PAID', error: 'PAID', message: 'Payment received', txHash: '0x02' })
    expect((await answerTo(error)).body).toEqual({ error: 'TRANSACTION_FAILED', code: 'TRANSACTION_FAILED', message: 'the payment was included but reverted', txHash: '0x02' })
  })

  test('behavior: every payment refusal has a status (none is a 500)', () => {
    const refusals: Record<PaymentRefusal, true> = {
      INVALID_STATUS: true,
      TOKEN_NOT_SUPPORTED: true,
      MERCHANT_NOT_REGISTERED: true,
      PERMIT_EXPIRED: true,
      PERMIT_DEADLINE_TOO_FAR: true,
      PERMIT_SIGNATURE_INVALID: true,
      PAYER_NOT_OWNER_VAULT: true,
      INSUFFICIENT_BALANCE: true,
      FUNDING_OWNER_MISMATCH: true,
      FUNDING_AMOUNT_MISMATCH: true,
      FUNDING_PERMIT_INVALID: true,
      USEROP_NOT_PREPARED: true,
      USEROP_SIGNATURE_INVALID: true,
      USEROP_PERMIT_MISMATCH: true,
      TRANSACTION_FAILED: true,
    }
    for (const code of Object.keys(refusals)) expect([code, answers[code]?.status]).toEqual([code, expect.any(Number)])
  })

  test('behavior: a lower layer is told in its own words where the table says so, and keeps its code otherwise', async () => {
    expect(await answerTo(new InvoiceNotFoundError('invoice 7 is not in the registry'))).toMatchObject({
      status: 404,
      body: { error: 'NOT_FOUND', code: 'NOT_FOUND', message: 'no invoice with this id' },
    })
    expect(await answerTo(new BundlerUnavailableError('the bundler did not answer', { cause: new Error('http://key@bundler.test') }))).toMatchObject({
      status: 503,
      body: { code: 'BUNDLER_UNAVAILABLE' },
    })
  })

  test('behavior: an authentication failure is a 401 that names the scheme', async () => {
    const { status, headers, body } = await answerTo(new AuthenticationError('CLOCK_SKEW', 'the clock is off'))
    expect(status).toBe(401)
    expect(headers.get('WWW-Authenticate')).toBe('SVC-HMAC')
    expect(body).toEqual({ error: 'CLOCK_SKEW', code: 'CLOCK_SKEW', message: 'the clock is off' })
  })

  test('behavior: an HttpError keeps its own status and headers', async () => {
    const { status, headers } = await answerTo(new HttpError(429, 'RATE_LIMITED', 'slow down', {}, { 'Retry-After': '3' }))
    expect(status).toBe(429)
    expect(headers.get('Retry-After')).toBe('3')
  })

  test('behavior: a code the table does not know, or a plain Error, is a 500 that reveals nothing', async () => {
    class SecretError extends CodedError {
      readonly code = 'SECRET_THING'
    }
    for (const error of [new SecretError('the key is 0xabc', { details: { key: '0xabc' } }), new Error('db password wrong')]) {
      expect(await answerTo(error)).toEqual({
        status: 500,
        headers: expect.anything(),
        body: { error: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'something went wrong on our side' },
      })
      expect(errorCode(error)).toBe('INTERNAL_ERROR')
    }
    expect(errorCode(new BaseError('rpc down'))).toBe('CHAIN_UNAVAILABLE')
  })
})
