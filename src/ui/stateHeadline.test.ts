import { expect, test } from 'vitest'
import type { PaymentState } from '../flow/paymentState'
import { stateHeadline } from './stateHeadline'
import { english } from './strings'

const t = english.strings
const error = (code: string): PaymentState => ({ name: 'error', code, status: null, retryAt: null, resume: { name: 'loading' } })

test('behavior: an unreadable chain or a service that cannot find an invoice the chain holds is not called a payment that failed', () => {
  expect(stateHeadline(error('CHAIN_UNREADABLE'), t)).toBe('This invoice cannot be checked right now')
  expect(stateHeadline(error('NOT_FOUND'), t)).toBe('The payment service cannot find this invoice')
  expect(stateHeadline(error('NETWORK_ERROR'), t)).toBe(t.errorTitle)
})
