import { CodedError } from '../../shared/codedError'
import { createPublicClient, http } from 'viem'
import type { Bundler } from '../chain/bundler'
import type { Queryable } from '../store/database'
import { pendingMigrations } from '../store/migrations'

/** A dependency is usable when its check resolves. */
export type ReadinessCheck = () => Promise<void>

/** A dependency that answered, but with something the server cannot work with. */
export class NotReadyError extends CodedError {
  override name = 'NotReadyError'
  readonly code = 'NOT_READY'
  constructor(readonly status: string) {
    super(`not ready: ${status}`)
  }
}

export type Readiness = { ready: boolean; checks: Record<string, string> }

async function probe(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))
  const answered = check().then(
    () => 'ok',
    (error: unknown) => (error instanceof NotReadyError ? error.status : 'unreachable'),
  )
  try {
    return await Promise.race([answered, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Runs every check at once, each given at most `timeoutMs`: a dependency that hangs delays the
 * answer by that much, never more. Each check is named in the answer, `ok` or what is wrong; an
 * `advisory` one is reported without making the server unready (the server works on without it). */
export async function checkReadiness(checks: Record<string, ReadinessCheck>, timeoutMs: number, advisory: ReadonlySet<string> = new Set()): Promise<Readiness> {
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await probe(check, timeoutMs)] as const))
  return { ready: results.every(([name, status]) => status === 'ok' || advisory.has(name)), checks: Object.fromEntries(results) }
}

/** What the server cannot serve payments without: its database with every migration, the chain it was
 * configured for, and its bundler. */
export function serverChecks({
  db,
  rpcUrl,
  chainId,
  bundler,
  redis,
  timeoutMs,
}: {
  db: Queryable
  rpcUrl: string
  chainId: number
  bundler: Pick<Bundler, 'ping'>
  /** Present when REDIS_URL is set. */
  redis?: { ping(): Promise<unknown> } | null
  timeoutMs: number
}): Record<string, ReadinessCheck> {
  // its own client: the server's retries and long timeouts are for payments, not for probes
  const rpc = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: timeoutMs }) })
  return {
    async database() {
      await db.query('SELECT 1')
    },
    async migrations() {
      if ((await pendingMigrations(db)).length > 0) throw new NotReadyError('pending')
    },
    async rpc() {
      if ((await rpc.getChainId()) !== chainId) throw new NotReadyError('wrong_chain')
    },
    bundler: () => bundler.ping(),
    ...(redis ? { redis: async () => void (await redis.ping()) } : {}),
  }
}

/** Checks reported but not required: without Redis the rate limits count in memory, so an instance
 * stays in service (taking every instance out at once over Redis would take the API down). */
export const advisoryChecks: ReadonlySet<string> = new Set(['redis'])
