import { describe, expect, test } from 'vitest'
import { readFrameMessage, readHostMessage, readWalletRequest, type FrameMessage } from '../../shared/embedProtocol'

const id = 'svc1abc'
const envelope = { svc: 1, id }

describe('frame → host messages', () => {
  test('behavior: accepts each event with its payload', () => {
    const paid = { ...envelope, type: 'paid', detail: { invoiceId: '7', userOpHash: `0x${'a'.repeat(64)}`, txHash: `0x${'b'.repeat(64)}` } }
    expect(readFrameMessage(paid, id)).toEqual(paid)
    expect(readFrameMessage({ ...envelope, type: 'error', detail: { invoiceId: '7', code: 'PERMIT_EXPIRED' } }, id)).toBeTruthy()
    expect(readFrameMessage({ ...envelope, type: 'resize', height: 640 }, id)).toBeTruthy()
    expect(readFrameMessage({ ...envelope, type: 'wallet:request', rid: 3, uuid: 'u', method: 'eth_chainId', params: [] }, id)).toBeTruthy()
  })

  test('behavior: ignores messages of another instance, version or shape', () => {
    const ready = { type: 'ready', detail: { invoiceId: '7' } }
    expect(readFrameMessage({ ...ready, svc: 1, id: 'other' }, id)).toBeUndefined()
    expect(readFrameMessage({ ...ready, svc: 2, id }, id)).toBeUndefined()
    expect(readFrameMessage({ ...ready, id }, id)).toBeUndefined()
    expect(readFrameMessage('ready', id)).toBeUndefined()
    expect(readFrameMessage(null, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'paid', detail: { invoiceId: '7', userOpHash: 1, txHash: 'x' } }, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'paid', detail: { invoiceId: 'x'.repeat(201), userOpHash: 'a', txHash: 'b' } }, id)).toBeUndefined()
    // every field in its own format: no markup, no long text, hashes that are hashes (or none)
    const hashA = `0x${'a'.repeat(64)}`
    for (const detail of [
      { invoiceId: '7', userOpHash: '<img src=x onerror=alert(1)>', txHash: '' },
      { invoiceId: '7', userOpHash: hashA, txHash: '0x02' },
      { invoiceId: '7 <b>', userOpHash: hashA, txHash: hashA },
      { invoiceId: '1'.repeat(79), userOpHash: hashA, txHash: hashA },
    ]) {
      expect(readFrameMessage({ ...envelope, type: 'paid', detail }, id)).toBeUndefined()
    }
    expect(readFrameMessage({ ...envelope, type: 'paid', detail: { invoiceId: '7', userOpHash: '', txHash: hashA } }, id)).toBeTruthy()
    expect(readFrameMessage({ ...envelope, type: 'error', detail: { invoiceId: '7', code: 'X'.repeat(41) } }, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'error', detail: { invoiceId: '7', code: 'Something went wrong' } }, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'resize', height: '640' }, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'resize', height: -1 }, id)).toBeUndefined()
    expect(readFrameMessage({ ...envelope, type: 'navigate', detail: { invoiceId: '7' } }, id)).toBeUndefined()
    // the checkout has no close control, so a frame that claims one is not listened to
    expect(readFrameMessage({ ...envelope, type: 'close', detail: { invoiceId: '7' } }, id)).toBeUndefined()
  })
})

describe('wallet requests, as the bridge reads them', () => {
  test('behavior: relays a well-formed request and ignores a malformed one', () => {
    const request = { ...envelope, type: 'wallet:request', rid: 3, uuid: 'u', method: 'eth_chainId', params: [] } as FrameMessage
    expect(readWalletRequest(request)).toEqual(request)
    expect(readWalletRequest({ ...request, rid: 1.5 } as FrameMessage)).toBeUndefined()
    expect(readWalletRequest({ ...request, params: 'x' } as unknown as FrameMessage)).toBeUndefined()
    expect(readWalletRequest({ ...envelope, type: 'wallet:list' } as FrameMessage)).toBeUndefined()
  })
})

describe('host → frame messages', () => {
  test('behavior: accepts the wallet list, responses and events', () => {
    const providers = { ...envelope, type: 'wallet:providers', providers: [{ uuid: 'u', name: 'W', icon: 'data:,', rdns: 'x.y' }], hostOrigin: 'https://shop.example' }
    expect(readHostMessage(providers, id)).toEqual(providers)
    expect(readHostMessage({ ...envelope, type: 'wallet:response', rid: 1, result: '0x1' }, id)).toBeTruthy()
    expect(readHostMessage({ ...envelope, type: 'wallet:response', rid: 1, error: { code: 4001, message: 'no' } }, id)).toBeTruthy()
    expect(readHostMessage({ ...envelope, type: 'wallet:event', uuid: 'u', event: 'chainChanged', data: '0x1' }, id)).toBeTruthy()
  })

  test('behavior: ignores malformed host messages', () => {
    expect(readHostMessage({ ...envelope, type: 'wallet:providers', providers: [{ uuid: 'u' }], hostOrigin: 'x' }, id)).toBeUndefined()
    expect(readHostMessage({ ...envelope, type: 'wallet:response', rid: 'a' }, id)).toBeUndefined()
    expect(readHostMessage({ ...envelope, type: 'wallet:response', rid: 1, error: { code: '4001' } }, id)).toBeUndefined()
    expect(readHostMessage({ ...envelope, type: 'wallet:event', uuid: 'u', event: 'eth_sign' }, id)).toBeUndefined()
    expect(readHostMessage({ svc: 1, id: 'x', type: 'wallet:response', rid: 1 }, id)).toBeUndefined()
  })
})
