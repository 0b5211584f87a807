import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import * as z from 'zod/mini'
import { addressSchema, deploymentSchema, hexSchema, uintStringSchema } from '../shared/deployment'


/** devnet.json: what a running devnet is, for tests and tools. Field names are an interface; add, never rename. */
const devnetFileSchema = z.object({
  chainId: z.int(),
  rpcUrl: z.url(),
  serverUrl: z.url(),
  storefrontUrl: z.url(),
  /** The merchant dashboard: sign in there as merchant.login below (absent from devnets before it). */
  dashboardUrl: z.optional(z.url()),
  contracts: z.omit(deploymentSchema, { chainId: true }),
  merchant: z.object({
    vault: addressSchema,
    owner: addressSchema,
    ownerPrivateKey: hexSchema,
    /** The studio that owns the vault, and an API key of it for the merchant routes (SPEC 4.12, 5.2). */
    studioId: z.uuid(),
    apiKey: z.object({ keyId: z.string().check(z.startsWith('svc_pk_')), secret: z.string().check(z.startsWith('svc_sk_')) }),
    /** The demo merchant's sign-in at the identity provider below: devnet-only credentials. */
    login: z.optional(z.object({ email: z.email(), password: z.string() })),
    /** A second user with no studio yet, who provisions one through a wallet: devnet-only credentials. */
    newLogin: z.optional(z.object({ email: z.email(), password: z.string() })),
  }),
  /** The devnet's OpenID Connect provider (server/identity/): authorization code with S256 PKCE for
   * the public client below, JWT access tokens for the API's audience. */
  identity: z.optional(z.object({ issuer: z.url(), audience: z.string(), clientId: z.string(), redirectUri: z.url() })),
  payer: z.object({ owner: addressSchema, ownerPrivateKey: hexSchema, vault: addressSchema }),
  invoices: z.array(
    z.object({ id: uintStringSchema, amount: uintStringSchema, invoiceNumber: z.string(), dueAt: uintStringSchema, shareLink: z.url() }),
  ),
  startedAt: z.string(),
  /** The folder the devnet's loopback SMTP server keeps each mail it receives in, one .eml file per
   * mail: the invoice mail a customer would get (devnet/mailbox.ts). */
  mailbox: z.optional(z.string()),
  /** Where `npm run keys` finds the devnet's database: the socket the running devnet answers on, the
   * PGlite directory it leaves when stopped (or the PostgreSQL it stored on, DATABASE_URL), and the
   * key its secrets are sealed under. */
  database: z.optional(
    z.object({ socket: z.string(), dataDir: z.optional(z.string()), databaseUrl: z.optional(z.string()), metadataEncryptionKey: z.string() }),
  ),
})

export type DevnetFile = z.infer<typeof devnetFileSchema>

export function devnetDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SVC_DEVNET_DIR || '.devnet')
}

/** Written through a rename so a reader never sees half a file. */
export function writeDevnetFile(dir: string, file: DevnetFile): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'devnet.json')
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(devnetFileSchema.parse(file), null, 2)}\n`, { mode: 0o600 })
  renameSync(temporary, path)
  return path
}

export function readDevnetFile(dir: string = devnetDir()): DevnetFile {
  return devnetFileSchema.parse(JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8')))
}
