import { formatUnits } from 'viem'
import * as z from 'zod/mini'
import { configSchema } from '../server/config'
import { jsonLogger } from '../server/http/logger'
import { stopOnSignals } from '../server/ops/shutdown'
import { CodedError } from '../shared/codedError'
import { devnetDir, writeDevnetFile, type DevnetFile } from './devnetFile'
import { startCheckoutDevnet } from './startCheckoutDevnet'

const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))
const env = z
  .object({
    PORT: z._default(port, 8787),
    DEVNET_RPC_PORT: z._default(port, 8545),
    STOREFRONT_PORT: z._default(port, 8788),
    IDENTITY_PORT: z._default(port, 8789),
    LOG_REQUESTS: z._default(z.stringbool(), false),
    SHUTDOWN_TIMEOUT_MS: configSchema.shape.SHUTDOWN_TIMEOUT_MS,
    DATABASE_URL: configSchema.shape.DATABASE_URL,
  })
  .parse(process.env)

const started = performance.now()
const dir = devnetDir()
const logger = jsonLogger()
const devnet = await startCheckoutDevnet({
  dir,
  rpcPort: env.DEVNET_RPC_PORT,
  port: env.PORT,
  storefrontPort: env.STOREFRONT_PORT,
  identityPort: env.IDENTITY_PORT,
  databaseUrl: env.DATABASE_URL,
  // request lines only when asked for: the devnet's own output is for people
  logger: env.LOG_REQUESTS ? logger : logger.child({}, { level: 'error' }),
}).catch((error: unknown) => {
  // ours say what to change; anything else keeps its trace for whoever reports it
  if (!(error instanceof CodedError)) throw error
  console.error(`npm start: ${error.message}`)
  process.exit(1)
})
const file: DevnetFile = { ...devnet.file, startedAt: new Date().toISOString() }
const { seed } = devnet
const path = writeDevnetFile(dir, file)
const readyMs = Math.round(performance.now() - started)

// before 'ready' is printed, which is what a person or a script waits for: a Ctrl-C or SIGTERM right
// after it would otherwise find no handler yet and leave the chain and the database unclosed
stopOnSignals(() => devnet.close(), { timeoutMs: env.SHUTDOWN_TIMEOUT_MS, logger })
const usdc = (amount: bigint) => `${Number(formatUnits(amount, 6)).toLocaleString('en-US', { minimumFractionDigits: 2 })} USDC`
console.log(
  [
    `svc-checkout devnet ready in ${readyMs} ms`,
    `  chain      ${file.chainId} at ${file.rpcUrl}`,
    `  server     ${file.serverUrl} (its ERC-7677 paymaster service for smart wallets: ${file.serverUrl}/v1/paymaster)`,
    `  contracts  EntryPoint ${file.contracts.entryPoint}, registry ${file.contracts.registry}, USDC ${file.contracts.token}`,
    ...(file.contracts.entryPointV06 ? [`             EntryPoint v0.6 ${file.contracts.entryPointV06} (canonical), its paymaster ${file.contracts.paymasterV06}`] : []),
    `  merchant   vault ${seed.merchant.vault}, API key ${file.merchant.apiKey.keyId} (its secret is in devnet.json)`,
    `  payer      vault ${seed.payer.vault} (not deployed yet), holds ${usdc(10_000_000_000n)}`,
    '  invoices   open a share link to pay:',
    ...seed.invoices.map((invoice, index) => `    ${invoice.metadata.invoiceNumber}  ${usdc(invoice.amount).padStart(15)}  ${file.invoices[index]!.shareLink}`),
    ...(file.dashboardUrl ? [`  dashboard  Sign in to the dashboard: ${file.dashboardUrl}`] : []),
    `  storefront ${file.storefrontUrl} (script tag, plain iframe and inline embeds on another origin; /order: built with @svc-checkout/js, paid on a verified webhook)`,
    '  webhooks   signed events from the chain to your backend (docs/webhooks.md); register a receiver with',
    `             ${process.env.SVC_DEVNET_DIR ? `SVC_DEVNET_DIR=${dir} ` : ''}npx tsx cli/webhookEndpoint.ts --url http://127.0.0.1:4000/webhooks`,
    ...(file.identity && file.merchant.login
      ? [
          `  sign-in    OpenID Connect provider ${file.identity.issuer}, the demo merchant is ${file.merchant.login.email} (its devnet-only password is in devnet.json);`,
          `             a bearer token for the account routes: ${process.env.SVC_DEVNET_DIR ? `SVC_DEVNET_DIR=${dir} ` : ''}npx tsx cli/devnetSignIn.ts`,
        ]
      : []),
    ...(file.mailbox ? [`  mailbox    the mail your customers get (send-email, sendEmail: true), one .eml file each, in ${file.mailbox}`] : []),
    `  details    ${path}`,
    'Ctrl-C stops everything.',
  ].join('\n'),
)
