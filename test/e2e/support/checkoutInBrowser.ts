import type { Browser } from 'playwright-core'
import { createPublicClient, http, type Address } from 'viem'
import { afterAll, beforeAll } from 'vitest'
import { invoiceRegistryAbi } from '../../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'
import { startNpmStart, type RunningDevnet } from '../../support/npmStart'
import { launchChromium } from './browser'

/** `npm start` and Debian's chromium for one test file, stopped after it, with the chain reads the
 * browser tests check what the page says against. */
export function useCheckoutInBrowser() {
  const context = {} as { devnet: RunningDevnet; browser: Browser }
  beforeAll(async () => {
    ;[context.devnet, context.browser] = await Promise.all([startNpmStart(), launchChromium()])
  }, 90_000)
  afterAll(async () => {
    await context.browser?.close()
    await context.devnet?.stop()
  })
  const chain = () => createPublicClient({ transport: http(context.devnet.file.rpcUrl) })
  return {
    get devnet() {
      return context.devnet
    },
    get browser() {
      return context.browser
    },
    chain,
    balanceOf: (address: Address) =>
      chain().readContract({ address: context.devnet.file.contracts.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] }),
    invoiceOnChain: (id: bigint) =>
      chain().readContract({ address: context.devnet.file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] }),
  }
}
