import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import * as z from 'zod/mini'
import { createMerchantClient } from './merchant/createMerchantClient'
import { tokenLabelSchema } from '../shared/shareWire'
import { uintStringSchema } from '../shared/deployment'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'

const usage = 'usage: npm run share-link -- --invoice <id> [--label <label>]'

const argsSchema = z.object({ invoice: uintStringSchema, label: z._default(tokenLabelSchema, 'share-link CLI') })

function parsedArgs() {
  try {
    const { values } = parseArgs({ options: { invoice: { type: 'string' }, label: { type: 'string' } } })
    const args = argsSchema.safeParse(values)
    if (args.success) return args.data
    console.error(args.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('; '))
  } catch (error) {
    console.error(error instanceof Error ? error.message : 'unreadable arguments')
  }
  console.error(usage)
  return null
}

/** `npm run share-link -- --invoice <id>`: a fresh access token for an invoice of the running devnet's
 * demo merchant, made through the signed merchant API; prints its share link. Other tokens stay valid. */
async function main(): Promise<number> {
  const args = parsedArgs()
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
