import { CodedError } from '../shared/codedError'
import { parseArgs } from 'node:util'
import * as z from 'zod/mini'
import { isScope, scopes } from '../server/auth/scopes'
import type { ApiKey, ApiKeyStore } from '../server/store/apiKeyStore'
import { StudioNotFoundError, type StudioStore } from '../server/store/studioStore'
import { UsageError } from './usageError'

export const keysUsage = `usage:
  npm run keys -- create --studio <uuid> --scopes <scope>[,<scope>…] [--name <name>] [--expires-in-days <1-365>]
  npm run keys -- list --studio <uuid>
  npm run keys -- revoke --studio <uuid> --key <svc_pk_…>
scopes: ${scopes.join(', ')}`

export class ApiKeyNotFoundError extends CodedError {
  override name = 'ApiKeyNotFoundError'
  readonly code = 'API_KEY_NOT_FOUND'
}

const studio = z.uuid('the studio id (a UUID)')
const scopeList = z.pipe(
  z.string(),
  z.transform((text) => text.split(',').map((scope) => scope.trim())),
)
const commands = {
  create: z.object({
    studio,
    // SPEC 2.8 and 8: 1 through 100 characters; expires_in_days 1 through 365.
    name: z._default(z.string().check(z.minLength(1), z.maxLength(100)), 'api key'),
    scopes: z.pipe(scopeList, z.array(z.string().check(z.refine(isScope, 'an unknown scope'))).check(z.minLength(1))),
    'expires-in-days': z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(365))),
  }),
  list: z.object({ studio }),
  revoke: z.object({ studio, key: z.string().check(z.regex(/^svc_pk_[A-Za-z0-9_-]+$/, 'the full svc_pk_ key id')) }),
}

export type KeysCommand =
  | { command: 'create'; studioId: string; name: string; scopes: string[]; expiresInDays: number | undefined }
  | { command: 'list'; studioId: string }
  | { command: 'revoke'; studioId: string; keyId: string }

function options<S extends z.ZodMiniType>(schema: S, values: unknown): z.infer<S> {
  const result = schema.safeParse(values)
  if (result.success) return result.data
  throw new UsageError(result.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('; '))
}

/** Checks the arguments before anything opens the database. */
export function parseKeysCommand(argv: readonly string[]): KeysCommand {
  const [command, ...rest] = argv
  let values: unknown
  try {
    ;({ values } = parseArgs({
      args: rest,
      options: { studio: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in-days': { type: 'string' }, key: { type: 'string' } },
    }))
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : 'unreadable arguments')
  }
  switch (command) {
    case 'create': {
      const create = options(commands.create, values)
      return { command, studioId: create.studio, name: create.name, scopes: create.scopes, expiresInDays: create['expires-in-days'] }
    }
    case 'list':
      return { command, studioId: options(commands.list, values).studio }
    case 'revoke': {
      const revoke = options(commands.revoke, values)
      return { command, studioId: revoke.studio, keyId: revoke.key }
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command ?? '')}`)
  }
}

/** SPEC 2.8's field names; the secret appears only in create's answer. */
function keyView(key: ApiKey) {
  return {
    key_id: key.keyId,
    name: key.name,
    scopes: key.scopes,
    secret_hint: key.secretHint,
    status: key.status,
    created_at: key.createdAt.toISOString(),
    expiry: key.expiresAt?.toISOString() ?? null,
  }
}

/** Runs one command for a studio; the answer is what the command line prints, as JSON. */
export async function runKeysCommand(
  command: KeysCommand,
  stores: { studios: Pick<StudioStore, 'getStudio'>; apiKeys: Pick<ApiKeyStore, 'createApiKey' | 'listApiKeys' | 'revokeApiKey'> },
  now: () => number = Date.now,
) {
  if (!(await stores.studios.getStudio(command.studioId))) throw new StudioNotFoundError(`no studio ${command.studioId}`)
  switch (command.command) {
    case 'create': {
      const expiresAt = command.expiresInDays === undefined ? undefined : new Date(now() + command.expiresInDays * 86_400_000)
      const { secret, ...key } = await stores.apiKeys.createApiKey({ studioId: command.studioId, name: command.name, scopes: command.scopes, expiresAt })
      return { ...keyView(key), secret }
    }
    case 'list':
      return (await stores.apiKeys.listApiKeys(command.studioId)).map(keyView)
    case 'revoke':
      if (!(await stores.apiKeys.revokeApiKey(command.studioId, command.keyId))) {
        throw new ApiKeyNotFoundError(`the studio has no active key ${command.keyId}`)
      }
      return { key_id: command.keyId, status: 'revoked' as const }
  }
}
