/**
 * The dashboard's client of /v1: the bearer token on every call, as any client of the API sends
 * it. A refusal becomes an error carrying the API's own message (and each field's), which the views
 * show as it is: it already says what to change.
 */

export class DashboardApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
  }
}

type ErrorBody = { message?: string; code?: string; error?: string; details?: { path?: string; message: string }[] }

function messageOf(body: ErrorBody | null, status: number): string {
  if (body?.details?.length) return body.details.map((issue) => issue.message).join('; ')
  return body?.message ?? `The server answered ${status}.`
}

export type Api = {
  json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T>
  file(path: string): Promise<Blob>
}

export function dashboardApi(token: string, onSignedOut: () => void): Api {
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (response.ok) return response
    const error = (await response.json().catch(() => null)) as ErrorBody | null
    // an expired token: back to the sign-in, which is what the merchant has to do next
    if (response.status === 401) onSignedOut()
    throw new DashboardApiError(messageOf(error, response.status), response.status)
  }
  return {
    async json<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      return (await (await call(method, path, body, headers)).json()) as T
    },
    async file(path: string) {
      return (await call('GET', path)).blob()
    },
  }
}

/** "12.5" USDC as base units, or null when it is not a positive amount with at most `decimals` places. */
export function baseUnitsOf(amount: string, decimals = 6): string | null {
  const match = /^(\d{1,18})(?:[.,](\d*))?$/.exec(amount.trim())
  if (!match || (match[2]?.length ?? 0) > decimals) return null
  const units = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt((match[2] ?? '').padEnd(decimals, '0') || '0')
  return units > 0n ? units.toString() : null
}

/** Opens a file the API answers (a PDF, an export) as a download: a plain link would carry no token. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
