import { formatCountdown } from '../format'
import { useLocale } from '../LocaleContext'
import { type AfterPayStrings, afterPayStrings } from '../strings.afterPay'
import { useNow } from '../useNow'

type ErrorProps = { code: string; status: number | null; retryAt: number | null; onRetry(): void }

/** A failure the payer can recover from, worded by code and status (never the server's prose, nor
 * its code: a service can answer any string there), with one action: try again, held back until
 * Retry-After has passed. */
export function ErrorView({ code, status, retryAt, onRetry }: ErrorProps) {
  const { strings: t } = useLocale()
  const a = afterPayStrings(t)
  const now = useNow(retryAt !== null)
  const wait = retryAt === null ? 0 : Math.ceil((retryAt - now) / 1000)
  return (
    <div role="alert">
      <p class="svc-warning">{errorText(code, status, a)}</p>
      <button type="button" class="svc-primary" onClick={onRetry} disabled={wait > 0}>
        {wait > 0 ? a.retryIn(formatCountdown(wait)) : newPermit(code) ? a.signNewPermit : t.retry}
      </button>
    </div>
  )
}

/** After these the retry asks the payer for a new signature: the button says so, never "Try again".
 * PERMIT_REFUSED is the service's PERMIT_EXPIRED while the chain's clock has the signed permit good:
 * the page says "expired" only from the chain. */
function newPermit(code: string): boolean {
  return code === 'PERMIT_SIGNATURE_INVALID' || code === 'USEROP_PERMIT_MISMATCH' || permitRenew(code)
}

const permitRenew = (code: string) => code === 'PERMIT_REFUSED' || code === 'PERMIT_EXPIRED'

function errorText(code: string, status: number | null, a: AfterPayStrings): string {
  if (permitRenew(code)) return a.errorPermitRenew
  if (newPermit(code)) return a.errorPermitRefused
  if (code === 'CHAIN_UNREADABLE') return a.errorCannotCheck
  // the flow says this only where the chain holds the invoice open: "not found" itself is a page of its own
  if (code === 'NOT_FOUND') return a.errorServiceNotFound
  if (status === 429) return a.errorRateLimited
  if (status === 502 || status === 503) return a.errorUnavailable
  // the service answered, in a shape that is not the documented one: it was reached
  if (code === 'INVALID_RESPONSE') return a.errorInvalidAnswer
  if (code === 'NETWORK_ERROR' || status === 0) return a.errorNetwork
  if (code === 'WALLET_ERROR') return a.errorWallet
  if (code === 'CONNECT_FAILED') return a.errorConnect
  if (code === 'VERIFICATION_FAILED') return a.errorVerification
  return a.errorRefused
}
