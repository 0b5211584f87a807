import { join } from 'node:path'
import { formatUnits } from 'viem'
import { createServer } from '../server/createServer'
import type { Logger } from '../server/http/logger'
import { lendDatabase } from './databaseSocket'
import { startMailbox } from './mailbox'
import { openDevnetDatabase } from './devnetDatabase'
import { devnetClients } from './deploy'
import { devnetConfig, serverOverrides } from './devnetConfig'
import type { DevnetFile } from './devnetFile'
import { devnetPage } from './devnetPage'
import { freeLoopbackPort } from './freeLoopbackPort'
import { createPayer, demoPayerFunds, issueDemoInvoices, type Seed, type SeededInvoice } from './seed'
import { seedMerchantAccess } from './seedMerchantAccess'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, newMerchantUser, seedMerchantLogin } from './seedMerchantLogin'
import { startIdentityProvider } from '../server/identity/identityProvider'
import { seedMetadata } from './seedMetadata'
import { startDevnet } from './startDevnet'
import { readEmbedManifest, startStorefront, type StorefrontProduct } from './storefront'

export type StartCheckoutDevnetParameters = {
  /** Where the devnet keeps its database and, when it needs one, its own build of the page. */
  dir: string
  rpcPort: number
  port: number
  storefrontPort: number
  /** The identity provider's port (0 or absent: any free one). */
  identityPort?: number
  /** PostgreSQL to store on (npm start's DATABASE_URL), an empty database; else a new embedded PGlite in `dir`. */
  databaseUrl?: string | undefined
  /** The server's request log; the devnet's own summary is for the caller to print. */
  logger: Logger
  /** Server settings of the caller's (a test's shorter WEBHOOK_INTERVAL_MS), over the devnet's own
   * and under those the environment gives. */
  serverSettings?: Record<string, string>
}

/** Where the devnet's sign-in client is sent back with its code. No page answers there yet (there is
 * no dashboard): a script reads the code from the redirect, as devnet/passwordSignIn.ts does. */
const identityRedirectUri = (port: number) => `http://127.0.0.1:${port || 8787}/signed-in`
/** The merchant dashboard's address, also its redirect URI at the identity provider. */
const dashboardUrl = (port: number) => `http://127.0.0.1:${port}/dashboard`
/** Where the devnet's enquiries (POST /v1/leads) are announced: the devnet's mailbox keeps every mail, for anyone. */
const devnetLeadsInbox = 'sales@devnet.svc-checkout.test'
/** Where the identity provider sends a user back to the CLI's and MCP's authorization server (/oauth). */
const oauthSignedInUri = (port: number) => `http://127.0.0.1:${port}/oauth/signed-in`

/** A set of demo invoices with their share links, and a payer who can pay them. */
export type DemoSet = Pick<DevnetFile, 'payer' | 'invoices'>

export type CheckoutDevnet = {
  /** devnet.json's content, with the demo set seeded at start. */
  file: Omit<DevnetFile, 'startedAt'>
  seed: Seed
  anvilPid: number | undefined
  /** Four new demo invoices of the demo merchant, with their share links, a new payer holding what the
   * first demo set's payer did, and the storefront selling the new invoices: a devnet whose demo
   * invoices were paid is as new without a restart. */
  newDemoSet(): Promise<DemoSet>
  close(): Promise<void>
}

/**
 * Everything `npm start` runs, in this process: a chain with the contracts deployed and a demo
 * merchant, payer and invoices seeded, the companion server on a new embedded database (or the empty
 * PostgreSQL database `databaseUrl` names), and the demo storefront on an origin of its own.
 */
export async function startCheckoutDevnet({ dir, rpcPort, port: askedPort, storefrontPort, identityPort = 0, databaseUrl, logger, serverSettings = {} }: StartCheckoutDevnetParameters): Promise<CheckoutDevnet> {
  // the dashboard's redirect URI names the server's port, registered before the server listens
  const port = askedPort || (await freeLoopbackPort())
  const dataDir = join(dir, 'pglite')
  // PGlite takes seconds to start: open it while the chain is deployed and seeded, and the page built
  // for this devnet's RPC when `npm run build` pinned another
  const [chain, database] = await Promise.allSettled([
    startDevnet({ port: rpcPort }).then(async (devnet) => {
      try {
        return { devnet, payPageDir: await devnetPage(devnet.pinned, dir) }
      } catch (error) {
        await devnet.anvil.stop()
        throw error
      }
    }),
    openDevnetDatabase({ dataDir, databaseUrl }),
  ])
  // either failing leaves nothing running: a chain kept alive would hold the port the next start wants
  if (chain.status === 'rejected' || database.status === 'rejected') {
    if (chain.status === 'fulfilled') await chain.value.devnet.anvil.stop()
    if (database.status === 'fulfilled') await database.value.close()
    throw chain.status === 'rejected' ? chain.reason : (database as PromiseRejectedResult).reason
  }
  const { devnet, payPageDir } = chain.value
  const db = database.value
  const { anvil, deployment, seed } = devnet

  // the demo storefront, on its own origin, is one the pay page may be framed by
  let products: StorefrontProduct[] = []
  const storefront = await startStorefront({ port: storefrontPort, products: () => products })
  // the customers' mail goes to a real SMTP server on loopback, which keeps it for the developer to read
  const mailbox = await startMailbox({ dir: join(dir, 'mailbox') })
  // merchants sign in through a real OpenID Connect provider; the server finds its keys as it would
  // any provider's, through its discovery document
  const identity = await startIdentityProvider({ port: identityPort, audience: devnetApiAudience, users: [demoMerchantUser, newMerchantUser], clients: [devnetIdentityClient([identityRedirectUri(port), dashboardUrl(port), oauthSignedInUri(port)])] })
  const discovery = (await (await fetch(`${identity.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
  const jwtSettings = { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, DASHBOARD_CLIENT_ID: devnetIdentityClient([]).clientId, OAUTH_IDENTITY_CLIENT_ID: devnetIdentityClient([]).clientId }
  // every payer of a devnet is its developer on 127.0.0.1: a limit per client address would count
  // them all as one; the limits per invoice and per owner still hold
  // webhooks to loopback: the demo storefront's receiver, and a merchant trying one on this machine
  const overrides = { ALLOWED_FRAME_ANCESTORS: `'self' ${storefront.url}`, SPONSORSHIP_LIMIT_PER_CLIENT: '0', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SMTP_URL: mailbox.url, LEADS_NOTIFY_EMAIL: devnetLeadsInbox, ...jwtSettings, ...serverSettings, ...serverOverrides(process.env), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }
  const config = devnetConfig(devnet, { port, ...(databaseUrl ? {} : { dataDir }), overrides })
  const server = await createServer(config, {
    db,
    payPageDir,
    logger,
    // the page's built-in devnet wallet pays as the demo payer: a devnet-only route
    devnetWallet: { privateKey: seed.payer.ownerPrivateKey, rpcUrl: anvil.rpcUrl },
  })
  storefront.checkoutReady(server.url, anvil.rpcUrl, readEmbedManifest(payPageDir))
  // `npm run keys` reaches this database through the devnet while it runs (devnet.json says where)
  // devnetEnv always sets the single key: the devnet's records are sealed under key id 0
  const toolsDatabase = { socket: join(dir, 'database.sock'), ...(databaseUrl ? { databaseUrl } : { dataDir }), metadataEncryptionKey: config.METADATA_ENCRYPTION_KEY! }
  const lent = await lendDatabase(db, toolsDatabase.socket)

  /** Share links for `invoices`, and the storefront selling the first three of them. */
  async function publish(invoices: SeededInvoice[]): Promise<DevnetFile['invoices']> {
    const shareLinks = await seedMetadata(server.stores, devnet, server.publicUrl, invoices)
    const linkOf = (invoice: SeededInvoice) => shareLinks.find((link) => link.invoiceId === invoice.id)!.shareLink
    products = invoices.slice(0, 3).map((invoice) => ({
      name: invoice.metadata.description ?? invoice.metadata.invoiceNumber,
      description: invoice.metadata.lineItems.map((item) => item.description).join(', '),
      invoiceId: invoice.id.toString(),
      token: new URL(linkOf(invoice)).searchParams.get('token')!,
      amount: formatUnits(invoice.amount, 6),
    }))
    return invoices.map((invoice) => ({
      id: invoice.id.toString(),
      amount: invoice.amount.toString(),
      invoiceNumber: invoice.metadata.invoiceNumber,
      dueAt: invoice.dueAt.toString(),
      shareLink: linkOf(invoice),
    }))
  }

  const invoices = await publish(seed.invoices)
  // PGlite belongs to this process, so the devnet's key is made here rather than by `npm run keys`.
  const merchantAccess = await seedMerchantAccess(server.stores, devnet)
  // the demo merchant's user owns the demo studio: its sign-in answers that studio
  await seedMerchantLogin(server.stores, identity.issuer, merchantAccess.studioId)
  // the storefront's server registers its receiver as a merchant's does, through the API with its key
  await storefront.registerWebhook({ ...merchantAccess.apiKey, vault: seed.merchant.vault, chainId: deployment.chainId, registry: deployment.registry })

  return {
    file: {
      chainId: deployment.chainId,
      rpcUrl: anvil.rpcUrl,
      serverUrl: server.url,
      storefrontUrl: storefront.url,
      dashboardUrl: dashboardUrl(port),
      contracts: {
        entryPoint: deployment.entryPoint,
        token: deployment.token,
        registry: deployment.registry,
        vaultFactory: deployment.vaultFactory,
        paymaster: deployment.paymaster,
        ...(deployment.entryPointV06 ? { entryPointV06: deployment.entryPointV06 } : {}),
        ...(deployment.paymasterV06 ? { paymasterV06: deployment.paymasterV06 } : {}),
      },
      merchant: { ...seed.merchant, ...merchantAccess, login: { email: demoMerchantUser.email, password: demoMerchantUser.password }, newLogin: { email: newMerchantUser.email, password: newMerchantUser.password } },
      identity: { issuer: identity.issuer, audience: devnetApiAudience, clientId: devnetIdentityClient([]).clientId, redirectUri: identityRedirectUri(port) },
      payer: seed.payer,
      invoices,
      database: toolsDatabase,
      mailbox: mailbox.dir,
    },
    seed,
    anvilPid: anvil.pid,
    async newDemoSet() {
      const clients = devnetClients(anvil.rpcUrl, deployment.chainId)
      const payer = await createPayer(clients, deployment, demoPayerFunds)
      return { payer, invoices: await publish(await issueDemoInvoices(anvil.rpcUrl, clients, deployment, seed.merchant)) }
    },
    async close() {
      await lent.close()
      await Promise.all([server.close(), storefront.close()])
      await mailbox.close()
      await identity.close()
      await anvil.stop()
    },
  }
}
