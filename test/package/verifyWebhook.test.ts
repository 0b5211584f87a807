import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, test } from 'vitest'
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../../packages/checkout/src/server'

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

const event: WebhookEvent = {
  type: 'invoice.paid',
  timestamp: '2026-11-24T12:00:00.000Z',
  data: {
    chainId: 31337,
    registry: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    invoiceId: '7',
    merchant: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    payer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    token: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    amount: '4540000000',
    fee: '45400000',
    net: '4494600000',
    feeBps: 100,
    txHash: `0x${'ab'.repeat(32)}`,
    logIndex: 3,
    blockNumber: '42',
    blockTime: '2026-11-24T12:00:00.000Z',
  },
}
const body = JSON.stringify(event)

/** A delivery as the server sends one: signed under each of `secrets` (two during a rotation). */
function delivery(secrets: string[], { payload = body, at = new Date(), id = 'msg_2p1zTAKqxLbBbJ3xqkXmUbhQz4z' } = {}) {
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' ')
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }
}

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run()
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('verifyWebhook accepted the delivery')
}

describe('verifyWebhook', () => {
  test('behavior: a delivery signed with the endpoint\'s secret returns its typed event, from a string, bytes, Headers or Node\'s headers', () => {
    const secret = newSecret()
    const headers = delivery([secret])
    expect(verifyWebhook(body, headers, secret)).toEqual(event)
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).toEqual(event)
    // Node lowercases names; some frameworks keep the sender's case
    expect(verifyWebhook(Buffer.from(body), { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': [headers['webhook-timestamp']], 'webhook-signature': headers['webhook-signature'] }, secret)).toEqual(event)
  })

  test('behavior: a tampered body is refused: the signature no longer matches', () => {
    const secret = newSecret()
    const tampered = body.replace('"net":"4494600000"', '"net":"9994600000"')
    expect(tampered).not.toBe(body)
    expect(refusal(() => verifyWebhook(tampered, delivery([secret]), secret))).toEqual({
      code: 'WEBHOOK_SIGNATURE_MISMATCH',
      message: "no webhook-signature matches this body under the given secret: the body was changed on the way, or the secret is not this endpoint's current one (after a rotation the old secret signs for 24 hours only)",
    })
  })

  test('behavior: an old timestamp is refused even with a good signature: a replayed delivery', () => {
    const secret = newSecret()
    const at = new Date(Date.now() - 6 * 60_000)
    const refused = refusal(() => verifyWebhook(body, delivery([secret], { at }), secret))
    expect(refused.code).toBe('WEBHOOK_TIMESTAMP_OUT_OF_RANGE')
    expect(refused.message).toBe(`the delivery's webhook-timestamp (${Math.floor(at.getTime() / 1000)}) is more than 5 minutes from this server's clock: a replayed delivery, or a clock that is off`)
    // four minutes is within the window
    expect(verifyWebhook(body, delivery([secret], { at: new Date(Date.now() - 4 * 60_000) }), secret)).toEqual(event)
  })

  test('behavior: after a rotation the rotated-out secret no longer verifies; during it, either does, and both may be passed', () => {
    const [old, current] = [newSecret(), newSecret()]
    // within the 24 h after a rotation the server signs with both
    const rotating = delivery([current, old])
    expect(verifyWebhook(body, rotating, old)).toEqual(event)
    expect(verifyWebhook(body, rotating, current)).toEqual(event)
    // after it, with the new one only
    const rotated = delivery([current])
    expect(refusal(() => verifyWebhook(body, rotated, old)).code).toBe('WEBHOOK_SIGNATURE_MISMATCH')
    expect(verifyWebhook(body, rotated, [current, old])).toEqual(event)
    expect(verifyWebhook(body, rotated, [old, current])).toEqual(event)
  })

  test('behavior: a wrong secret, a missing header or a signed body that is no event is refused', () => {
    const secret = newSecret()
    expect(refusal(() => verifyWebhook(body, delivery([newSecret()]), secret)).code).toBe('WEBHOOK_SIGNATURE_MISMATCH')
    const { 'webhook-signature': _, ...unsigned } = delivery([secret])
    expect(refusal(() => verifyWebhook(body, unsigned, secret))).toEqual({ code: 'WEBHOOK_HEADERS_MISSING', message: 'the request has no webhook-signature header: it is not a svc-checkout webhook delivery' })
    const other = JSON.stringify({ type: 'invoice.disputed', timestamp: event.timestamp, data: event.data })
    expect(refusal(() => verifyWebhook(other, delivery([secret], { payload: other }), secret)).code).toBe('WEBHOOK_PAYLOAD_INVALID')
    // a refund is an event this package knows
    const refunded = JSON.stringify({ type: 'invoice.refunded', timestamp: event.timestamp, data: { ...event.data, amount: '1', refundedTotal: '1' } })
    expect(verifyWebhook(refunded, delivery([secret], { payload: refunded }), secret)).toMatchObject({ type: 'invoice.refunded', data: { refundedTotal: '1' } })
  })

  test('behavior: a parsed body is a TypeError that says to pass the raw one', () => {
    const secret = newSecret()
    expect(() => verifyWebhook(event as never, delivery([secret]), secret)).toThrow(new TypeError('verifyWebhook: pass the raw request body (a string or bytes), not a parsed object: its signature covers the exact bytes sent'))
  })
})
