import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { installedFiles, installPackedPackage, type InstalledPackage } from '../support/packedPackage'

let installed: InstalledPackage

beforeAll(async () => {
  installed = await installPackedPackage()
}, 180_000)
afterAll(() => rmSync(installed.dir, { recursive: true, force: true }))

/**
 * tsc on merchant apps in the merchant's project, as their build would: for each app (by its folder),
 * the lines tsc printed about it, and the lines about no app (tsc's own complaints). One tsc run
 * checks them all: most of a run is tsc loading itself, the DOM's and React's types.
 */
function typecheck(apps: Record<string, string>): { about: Record<string, string[]>; other: string[] } {
  for (const [folder, source] of Object.entries(apps)) {
    mkdirSync(join(installed.dir, folder), { recursive: true })
    writeFileSync(join(installed.dir, folder, 'app.tsx'), source)
  }
  writeFileSync(
    join(installed.dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', jsx: 'react-jsx', strict: true, noEmit: true, lib: ['ES2023', 'DOM'], types: [] },
      files: Object.keys(apps).map((folder) => `${folder}/app.tsx`),
    }),
  )
  let output = ''
  try {
    execFileSync(process.execPath, [join(installed.dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', installed.dir], { cwd: installed.dir, encoding: 'utf8' })
  } catch (error) {
    output = String((error as { stdout?: string }).stdout)
  }
  const about: Record<string, string[]> = Object.fromEntries(Object.keys(apps).map((folder) => [folder, []]))
  const other: string[] = []
  let current: string[] = other
  for (const line of output.split('\n').filter((text) => text.trim() !== '')) {
    const folder = Object.keys(apps).find((name) => line.startsWith(`${name}/app.tsx(`))
    // an error's further lines are indented under it
    if (folder) current = about[folder]!
    else if (!line.startsWith(' ')) current = other
    current.push(folder ? line.slice(folder.length + 1) : line)
  }
  return { about, other }
}

const consumer = `import { loadCheckout, type Checkout as Mounted, type CheckoutEvents } from '@svc-checkout/js'
import { Checkout } from '@svc-checkout/js/react'
import { readInvoice, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@svc-checkout/js/server'

export async function pay(element: HTMLElement): Promise<Mounted | null> {
  const svc = await loadCheckout('https://pay.example.com', { integrity: 'sha384-abc', src: 'https://pay.example.com/embed/embed.v1.x.js' })
  if (!svc) return null
  const checkout = svc.mount(element, { invoiceId: '42', token: 'svc_tk_x', mode: 'inline', layout: 'compact', theme: { '--svc-color-accent': '#0a7' } })
  checkout.on('paid', (detail: CheckoutEvents['paid']) => console.log(detail.txHash))
  return checkout
}

export const view = <Checkout baseUrl="https://pay.example.com" invoiceId="42" layout="compact" onPaid={(paid) => console.log(paid.userOpHash)} onError={(error) => console.log(error.code, error.cause?.message)} />

export async function receive(body: string, headers: Headers): Promise<string> {
  try {
    const event: WebhookEvent = verifyWebhook(body, headers, ['whsec_new', 'whsec_old'])
    if (event.type === 'invoice.paid') return event.data.net + event.data.txHash
    return event.data.invoiceId
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code
    throw error
  }
}

export async function poll(): Promise<string> {
  const invoice = await readInvoice({ rpcUrl: 'http://127.0.0.1:8545', deployment: { chainId: 31337, registry: '0x0000000000000000000000000000000000000001' }, invoiceId: 1n, fromBlock: 0n })
  return invoice.status === 'notFound' ? 'none' : invoice.status + invoice.amount
}
`

/** A merchant app using every entry, and the same app with a wrong mount option, event name and event field. */
const wrong = consumer
  .replace("layout: 'compact', theme", "layout: 'tiny', theme")
  .replace("checkout.on('paid'", "checkout.on('payed'")
  .replace('event.data.net + event.data.txHash', 'event.data.net + event.data.blockHash')
let checked: ReturnType<typeof typecheck>
// tsc on merchant apps takes seconds, more on a loaded machine
beforeAll(() => {
  checked = typecheck({ right: consumer, wrong })
}, 90_000)

describe('the packed @svc-checkout/js', { timeout: 90_000 }, () => {
  test('behavior: the tarball holds its README, the build and its declarations only, and installs offline from its file', () => {
    expect(installed.files).toEqual(['README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/react.d.ts', 'dist/react.js', 'dist/server.d.ts', 'dist/server.js', 'package.json'])
    expect(installedFiles(installed.dir)).toEqual(['README.md', 'dist', 'dist/index.d.ts', 'dist/index.js', 'dist/react.d.ts', 'dist/react.js', 'dist/server.d.ts', 'dist/server.js', 'package.json'])
    // its own dependencies came from npm's cache; React is the app's
    expect(existsSync(join(installed.dir, 'node_modules', 'viem', 'package.json'))).toBe(true)
    expect(existsSync(join(installed.dir, 'node_modules', 'standardwebhooks', 'package.json'))).toBe(true)
  })

  test('behavior: a merchant app using all three entries type-checks with tsc against the installed package', () => {
    expect(checked.other).toEqual([])
    expect(checked.about.right).toEqual([])
  })

  test('behavior: a wrong mount option, event name or event field is a type error in the merchant app', () => {
    expect(checked.other).toEqual([])
    expect(checked.about.wrong).toEqual([
      `app.tsx(8,93): error TS2322: Type '"tiny"' is not assignable to type '"compact" | "full" | undefined'.`,
      `app.tsx(9,15): error TS2345: Argument of type '"payed"' is not assignable to parameter of type 'keyof CheckoutEvents'.`,
      `app.tsx(18,75): error TS2339: Property 'blockHash' does not exist on type 'InvoicePaidData'.`,
    ])
  })

  test('behavior: the server entry runs in Node from the installed package: verifyWebhook refuses a forged delivery', () => {
    writeFileSync(
      join(installed.dir, 'receive.mjs'),
      `import { verifyWebhook } from '@svc-checkout/js/server'
try { verifyWebhook('{}', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' }, 'whsec_' + Buffer.alloc(32, 7).toString('base64')) }
catch (error) { console.log(error.code) }`,
    )
    expect(execFileSync(process.execPath, ['receive.mjs'], { cwd: installed.dir, encoding: 'utf8' }).trim()).toBe('WEBHOOK_SIGNATURE_MISMATCH')
  })
})
