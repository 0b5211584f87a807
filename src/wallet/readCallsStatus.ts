import type { Eip1193Provider } from '../../shared/eip1193'

/** The wallet's word on a batch (EIP-5792 status codes: 1xx pending, 200 confirmed, 4xx-6xx failed),
 * or `unknown` when it gave none. Only ever a hint: the page says paid or not from the chain alone. */
export type CallsStatus = 'pending' | 'confirmed' | 'failed' | 'unknown'

export async function readCallsStatus(provider: Eip1193Provider, id: string): Promise<CallsStatus> {
  const answer = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as { status?: unknown } | null
  const status = answer?.status
  if (typeof status !== 'number') return 'unknown'
  if (status >= 100 && status < 200) return 'pending'
  if (status === 200) return 'confirmed'
  return status >= 400 && status < 700 ? 'failed' : 'unknown'
}
