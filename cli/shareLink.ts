import { existsSync } from 'node:fs'
import { join } from 'node:path'
import '../server/zodLocale'
import * as z from 'zod/mini'
import { createMerchantClient } from './merchant/createMerchantClient'
import { tokenLabelSchema } from '../shared/shareWire'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { asksForHelp, commandOrUsage, parseFlags, UsageError } from './usageError'

const usage = `usage:
  npm run share-link -- --invoice <id> [--label <label>]
    a fresh share link for an invoice of the running devnet's demo merchant (\`npm start\`; its devnet.json
    in SVC_DEVNET_DIR, default .devnet), signed with the merchant's API key; earlier links stay valid
    --invoice <id>     the invoice's id on the registry (devnet.json lists the demo invoices)
    --label <label>    what the link is for, kept with its token (default "share-link CLI")
  npm run share-link -- --help    prints this`

const invoiceWanted = "the invoice's id on the registry, a whole number (devnet.json lists the demo invoices)"
const argsSchema = z.object({
  invoice: z.string({ error: (issue) => (issue.input === undefined ? `missing: ${invoiceWanted}` : undefined) }).check(z.regex(/^(0|[1-9]\d{0,77})$/, `not ${invoiceWanted}`)),
  label: z._default(tokenLabelSchema, 'share-link CLI'),
})

function parseShareLinkArgs(argv: readonly string[]) {
  const values = parseFlags(argv, { invoice: { type: 'string' }, label: { type: 'string' } })
  const args = argsSchema.safeParse(values)
  if (!args.success) throw new UsageError(args.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('; '))
  return args.data
}

/** `npm run share-link -- --invoice <id>`: a fresh access token for an invoice of the running devnet's
 * demo merchant, made through the signed merchant API; prints its share link. Other tokens stay valid. */
async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (asksForHelp(argv)) {
    console.log(usage)
    return 0
  }
  const args = commandOrUsage(() => parseShareLinkArgs(argv), usage)
  if (!args) return 2
  const dir = devnetDir()
  if (!existsSync(join(dir, 'devnet.json'))) {
    console.error(`no devnet.json in ${dir}: start the devnet with \`npm start\` (or set SVC_DEVNET_DIR)`)
    return 1
  }
  const devnet = readDevnetFile(dir)
  const client = createMerchantClient({ baseUrl: devnet.serverUrl, ...devnet.merchant.apiKey })
  const { shareLink } = await client.createToken(args.invoice, { label: args.label })
  console.log(shareLink)
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : ''
    console.error(`${error instanceof Error ? error.message : 'failed'}${code}`)
    process.exit(1)
  },
)
