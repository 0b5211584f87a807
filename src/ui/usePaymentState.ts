import { useEffect, useState } from 'preact/hooks'
import type { PaymentFlow } from '../flow/createPaymentFlow'
import type { PaymentState } from '../flow/paymentState'

/** The flow's current state, re-rendered on every change. */
export function usePaymentState(flow: PaymentFlow): PaymentState {
  const [state, setState] = useState(flow.state)
  useEffect(() => {
    setState(flow.state)
    return flow.subscribe(setState)
  }, [flow])
  return state
}
