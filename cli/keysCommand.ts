import '../server/zodLocale'
import { getAddress, type Address } from 'viem'
import * as z from 'zod/mini'
import { CodedError } from '../shared/codedError'
import { isScope, scopes } from '../server/auth/scopes'
import { keyToWire } from '../server/merchant/accounts/ownerApiKey'
import type { ApiKey, ApiKeyStore } from '../server/store/apiKeyStore'
import { rotateEncryptionKey, type RotateEncryptionKeyDependencies } from '../server/store/rotateEncryptionKey'
import { StudioNotFoundError, type Studio, type StudioStore } from '../server/store/studioStore'
import { parseFlags, UsageError } from './usageError'

export const keysUsage = `usage:
  npm run keys -- create-studio --vault <address> --chain-id <id> [--name <name>]
      (a studio is a merchant's workspace: it owns the invoices of one vault on one chain, and their API keys)
  npm run keys -- create --studio <uuid> --scopes <scope>[,<scope>…] [--name <name>] [--expires-in-days <1-365>]
  npm run keys -- list --studio <uuid>
  npm run keys -- revoke --studio <uuid> --key <svc_pk_…>
  npm run keys -- rotate-encryption-key [--batch-size <1-10000>]
      (re-seals every stored secret under the active key while the servers run; see docs/operations.md)
scopes: ${scopes.join(', ')}
database: the server's own, DATABASE_URL or DATA_DIR (default .data) with METADATA_ENCRYPTION_KEY or
  METADATA_ENCRYPTION_KEYS (and METADATA_ENCRYPTION_ACTIVE_KEY); with none of them set, the devnet's
  that \`npm start\` runs (its devnet.json in SVC_DEVNET_DIR, default .devnet)`

export class ApiKeyNotFoundError extends CodedError {
  override name = 'ApiKeyNotFoundError'
  readonly code = 'API_KEY_NOT_FOUND'
}

const createStudioHint = 'npm run keys -- create-studio --vault <address> --chain-id <id>'

/** What a flag wants, said when it is missing and when it is malformed (a key id is not secret; the
 * input is still never echoed, only named). */
const wanting = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `missing: ${what}` : `not ${what}`)

const name = z.string({ error: wanting('a name of 1 to 100 characters') }).check(z.minLength(1, 'not a name of 1 to 100 characters'), z.maxLength(100, 'not a name of 1 to 100 characters'))
const wholeNumber = (what: string, min: number, max: number) =>
  z.pipe(
    z.string({ error: wanting(what) }).check(z.regex(/^\d{1,16}$/, `not ${what}`)),
    z.transform(Number),
  ).check(z.refine((value) => value >= min && value <= max, `not ${what}`))
const studio = z.uuid({ error: wanting(`the studio's id, a UUID (${createStudioHint} makes one)`) })
const scopeList = z.pipe(
  z.string({ error: wanting(`the key's scopes, comma-separated: ${scopes.join(', ')}`) }),
  z.transform((text) => text.split(',').map((scope) => scope.trim())),
)
const commands = {
  'create-studio': z.object({
    vault: z.string({ error: wanting("the merchant's vault, a 0x address") }).check(z.regex(/^0x[0-9a-fA-F]{40}$/, "not the merchant's vault, a 0x address")),
    'chain-id': wholeNumber("the vault's chain id, a positive integer (31337 for the devnet)", 1, Number.MAX_SAFE_INTEGER),
    name: z.optional(name),
  }),
  create: z.object({
    studio,
    // SPEC 2.8 and 8: 1 through 100 characters; expires_in_days 1 through 365.
    name: z._default(name, 'api key'),
    scopes: z.pipe(scopeList, z.array(z.string().check(z.refine(isScope, `an unknown scope: the scopes are ${scopes.join(', ')}`))).check(z.minLength(1))),
    'expires-in-days': z.optional(wholeNumber('a whole number of days from 1 to 365', 1, 365)),
  }),
  list: z.object({ studio }),
  'rotate-encryption-key': z.object({ 'batch-size': z._default(wholeNumber('a whole number of rows from 1 to 10000', 1, 10_000), 500) }),
  revoke: z.object({ studio, key: z.string({ error: wanting('the full svc_pk_… key id (list shows them)') }).check(z.regex(/^svc_pk_[A-Za-z0-9_-]+$/, 'not the full svc_pk_… key id (list shows them)')) }),
}

export type KeysCommand =
  | { command: 'create-studio'; vault: Address; chainId: number; name: string | undefined }
  | { command: 'create'; studioId: string; name: string; scopes: string[]; expiresInDays: number | undefined }
  | { command: 'list'; studioId: string }
  | { command: 'revoke'; studioId: string; keyId: string }
  | { command: 'rotate-encryption-key'; batchSize: number }

function options<S extends z.ZodMiniType>(schema: S, values: unknown): z.infer<S> {
  const result = schema.safeParse(values)
  if (result.success) return result.data
  throw new UsageError(result.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('; '))
}

/** Checks the arguments before anything opens the database. */
export function parseKeysCommand(argv: readonly string[]): KeysCommand {
  const [command, ...rest] = argv
  const values = parseFlags(rest, {
    studio: { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in-days': { type: 'string' },
    key: { type: 'string' },
    vault: { type: 'string' },
    'chain-id': { type: 'string' },
    'batch-size': { type: 'string' },
  })
  switch (command) {
    case 'create-studio': {
      const created = options(commands['create-studio'], values)
      return { command, vault: getAddress(created.vault), chainId: created['chain-id'], name: created.name }
    }
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
    case 'rotate-encryption-key':
      return { command, batchSize: options(commands['rotate-encryption-key'], values)['batch-size'] }
    case undefined:
      throw new UsageError('say what to do: create-studio, create, list, revoke or rotate-encryption-key')
    default:
      throw new UsageError(`${JSON.stringify(command)}: unknown command; the commands are create-studio, create, list and revoke (studios and API keys), and rotate-encryption-key`)
  }
}

function studioView(studio: Studio) {
  return { studio_id: studio.id, name: studio.name, vault: studio.vaultAddress, chain_id: studio.chainId, created_at: studio.createdAt.toISOString() }
}

/** SPEC 2.8's field names, as the API lists a key (keyToWire), its expiry under the name this
 * command has always printed; the secret appears only in create's answer. */
function keyView(key: ApiKey) {
  const { key_id, name, scopes, secret_hint, status, created_at, expires_at } = keyToWire(key)
  return { key_id, name, scopes, secret_hint, status, created_at, expiry: expires_at }
}

/** Runs one command; the answer is what the command line prints, as JSON. */
export async function runKeysCommand(
  command: KeysCommand,
  stores: { studios: Pick<StudioStore, 'getStudio' | 'createStudio'>; apiKeys: Pick<ApiKeyStore, 'createApiKey' | 'listApiKeys' | 'revokeApiKey'> },
  now: () => number = Date.now,
) {
  // it needs the keys and the database, not the stores: runRotateEncryptionKeyCommand
  if (command.command === 'rotate-encryption-key') throw new UsageError('rotate-encryption-key is run by runRotateEncryptionKeyCommand')
  if (command.command === 'create-studio') {
    return studioView(await stores.studios.createStudio({ name: command.name, vaultAddress: command.vault, chainId: command.chainId }))
  }
  if (!(await stores.studios.getStudio(command.studioId))) {
    throw new StudioNotFoundError(`no studio ${command.studioId} in this database: create one with ${createStudioHint}`)
  }
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

/** `rotate-encryption-key`: every record re-sealed under the active key, progress told to `log` as it
 * goes. The answer is what the command line prints; `done` is false while rows remain under other
 * keys (a server still sealing under an older key: run it again once every server has the new one). */
export async function runRotateEncryptionKeyCommand(
  command: Extract<KeysCommand, { command: 'rotate-encryption-key' }>,
  dependencies: RotateEncryptionKeyDependencies & { log: (line: string) => void },
) {
  const { log, ...rotation } = dependencies
  const { activeKeyId } = rotation.ciphers.metadata
  log(`re-sealing under key id ${activeKeyId}, ${command.batchSize} rows at a time`)
  const result = await rotateEncryptionKey(rotation, {
    batchSize: command.batchSize,
    onProgress: ({ table, read, resealed, changed }) => log(`${table}: ${read} rows read, ${resealed} re-sealed, ${changed} changed meanwhile (left as they are)`),
  })
  const others = Object.keys(result.sealedUnder).filter((keyId) => Number(keyId) !== activeKeyId)
  return {
    done: others.length === 0,
    answer: { active_key_id: activeKeyId, tables: result.tables, sealed_under: result.sealedUnder },
    message:
      others.length === 0
        ? `every record is sealed under key id ${activeKeyId}: the other keys can be removed from every server`
        : `rows are still sealed under key id ${others.join(', ')}: a server may still seal under it; make key id ${activeKeyId} active on every server and run this again`,
  }
}
