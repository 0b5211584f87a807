import { existsSync } from 'node:fs'
import { join } from 'node:path'
import '../server/zodLocale'
import * as z from 'zod/mini'
import { createMerchantClient } from './merchant/createMerchantClient'
import { defaultWebhookEventTypes, webhookEventTypes, webhookEventTypeSchema } from '../shared/webhookWire'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { asksForHelp, commandOrUsage, parseFlags, UsageError } from './usageError'

const usage = `usage:
  npx tsx cli/webhookEndpoint.ts --url <url> [--events invoice.paid,invoice.canceled]
    registers a webhook endpoint for the running devnet's demo merchant (\`npm start\`; its devnet.json in
    SVC_DEVNET_DIR, default .devnet) through the signed merchant API, and prints its id and signing
    secret (shown this once). The devnet accepts loopback URLs (WEBHOOK_ALLOW_PRIVATE_URLS)
    --url <url>         where events are POSTed, such as http://127.0.0.1:4000/webhooks
    --events <types>    comma-separated, among ${webhookEventTypes.join(', ')} (default ${defaultWebhookEventTypes.join(',')})
  npx tsx cli/webhookEndpoint.ts --help    prints this`

const argsSchema = z.object({
  url: z.string({ error: (issue) => (issue.input === undefined ? 'missing: where events are POSTed, an http(s) URL' : undefined) }).check(z.url({ protocol: /^https?$/, error: 'not an http(s) URL' })),
  events: z.optional(z.string()),
})

function parseArgs(argv: readonly string[]) {
  const values = parseFlags(argv, { url: { type: 'string' }, events: { type: 'string' } })
  const args = argsSchema.safeParse(values)
  if (!args.success) throw new UsageError(args.error.issues.map((issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`).join('; '))
  const events = args.data.events?.split(',').map((type) => type.trim()).filter(Boolean)
  for (const type of events ?? []) {
    if (!webhookEventTypeSchema.safeParse(type).success) throw new UsageError(`--events: ${type} is not one of ${webhookEventTypes.join(', ')}`)
  }
  return { url: args.data.url, ...(events ? { events: events as (typeof webhookEventTypes)[number][] } : {}) }
}

/** Registers a webhook endpoint for the devnet's demo merchant, as a merchant's backend would. */
async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (asksForHelp(argv)) {
    console.log(usage)
    return 0
  }
  const args = commandOrUsage(() => parseArgs(argv), usage)
  if (!args) return 2
  const dir = devnetDir()
  if (!existsSync(join(dir, 'devnet.json'))) {
    console.error(`no devnet.json in ${dir}: start the devnet with \`npm start\` (or set SVC_DEVNET_DIR)`)
    return 1
  }
  const devnet = readDevnetFile(dir)
  const client = createMerchantClient({ baseUrl: devnet.serverUrl, ...devnet.merchant.apiKey })
  const created = await client.createWebhookEndpoint(args)
  console.log(
    [
      `endpoint ${created.id}: ${created.url} receives ${created.events.join(', ')}`,
      `secret   ${created.secret}`,
      'Keep the secret: it is not shown again. Verify each delivery with it (docs/webhooks.md).',
    ].join('\n'),
  )
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
