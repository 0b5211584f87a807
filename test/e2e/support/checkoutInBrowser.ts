import type { Browser } from 'playwright-core'
import { createPublicClient, http, parseUnits, type Address } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import { issueInvoice } from '../../../devnet/seed'
import type { DevnetFile } from '../../../devnet/devnetFile'
import { workerCheckout } from '../../support/workerCheckout'
import { launchChromium } from './browser'

/** What a browser test file sees of the devnet: devnet.json as `npm start` writes it, with demo
 * invoices and a demo payer of the file's own, and the server's request log. */
export type BrowserDevnet = { file: DevnetFile; output(): string }

/** What `npm start` runs (shared by the files of a test worker, each with a demo set of its own) and
 * Debian's chromium for one test file, with the chain reads the browser tests check what the page
 * says against. */
export function useCheckoutInBrowser() {
  const context = {} as { devnet: BrowserDevnet; browser: Browser }
  beforeAll(async () => {
    const [checkout, browser] = await Promise.all([workerCheckout(), launchChromium()])
    const demo = await checkout.newDemoSet()
    context.devnet = { file: { ...checkout.file, ...demo, startedAt: new Date().toISOString() }, output: () => checkout.output() }
    context.browser = browser
  }, 90_000)
  afterAll(async () => {
    await context.browser?.close()
  })
  const chain = () => createPublicClient({ transport: http(context.devnet.file.rpcUrl) })
  const deployment = () => ({ chainId: context.devnet.file.chainId, ...context.devnet.file.contracts })
  return {
    get devnet() {
      return context.devnet
    },
    get browser() {
      return context.browser
    },
    chain,
    deployment,
    /** A new open invoice of the demo merchant, due in 30 days, and its pay page (no share token). */
    async freshInvoice(amount = parseUnits('5000', 6)) {
      const { timestamp } = await chain().getBlock()
      const { rpcUrl, merchant, serverUrl } = context.devnet.file
      const invoice = await issueInvoice(rpcUrl, deployment(), merchant, { amount, dueAt: timestamp + 86_400n * 30n, metaHash: `0x${'cd'.repeat(32)}` })
      return { ...invoice, url: `${serverUrl}/pay/${invoice.id}` }
    },
    balanceOf: (address: Address) =>
      chain().readContract({ address: context.devnet.file.contracts.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] }),
    invoiceOnChain: (id: bigint) =>
      chain().readContract({ address: context.devnet.file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] }),
  }
}
