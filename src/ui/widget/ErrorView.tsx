import { formatCountdown } from '../format'
import { useLocale } from '../LocaleContext'
import type { Strings } from '../strings'
import { afterPayStrings } from '../strings.afterPay'
import { useNow } from '../useNow'

type ErrorProps = { code: string; status: number | null; retryAt: number | null; onRetry(): void }

/** A failure the payer can recover from, worded by code and status (never the server's prose, nor
 * its code: a service can answer any string there), with one action: try again, held back until
 * Retry-After has passed. */
export function ErrorView({ code, status, retryAt, onRetry }: ErrorProps) {
  const { strings: t } = useLocale()
  const now = useNow(retryAt !== null)
  const wait = retryAt === null ? 0 : Math.ceil((retryAt - now) / 1000)
  return (
    <div role="alert">
      <p class="svc-warning">{errorText(code, status, t)}</p>
      <button type="button" class="svc-primary" onClick={onRetry} disabled={wait > 0}>
        {wait > 0 ? t.retryIn(formatCountdown(wait)) : newPermit(code) ? t.signNewPermit : t.retry}
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

function errorText(code: string, status: number | null, t: Strings): string {
  if (permitRenew(code)) return t.errorPermitRenew
  if (newPermit(code)) return t.errorPermitRefused
  if (code === 'CHAIN_UNREADABLE') return t.errorCannotCheck
  // the flow says this only where the chain holds the invoice open: "not found" itself is a page of its own
  if (code === 'NOT_FOUND') return t.errorServiceNotFound
  if (status === 429) return t.errorRateLimited
  if (status === 502 || status === 503) return t.errorUnavailable
  // the service answered, in a shape that is not the documented one: it was reached
  if (code === 'INVALID_RESPONSE') return afterPayStrings(t).errorInvalidAnswer
  if (code === 'NETWORK_ERROR' || status === 0) return t.errorNetwork
  if (code === 'WALLET_ERROR') return t.errorWallet
  if (code === 'CONNECT_FAILED') return t.errorConnect
  if (code === 'VERIFICATION_FAILED') return t.errorVerification
  return t.errorRefused
}
