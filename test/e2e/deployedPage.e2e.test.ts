import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { parseUnits } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import type { DeployOutcome } from '../../cli/runDeploy'
import { createServer, type RunningServer } from '../../server/createServer'
import { devnetPage } from '../../devnet/devnetPage'
import { silentLogger } from '../../server/http/logger'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { deployedServerConfig, deployTo, freshChain, seedPayment, type FreshChain } from '../support/deployedChain'
import { launchChromium } from './support/browser'
import { clickPay } from './support/clickPay'
import { injectTestWallet } from './support/testWallet'

const context = {} as { chain: FreshChain; deployed: DeployOutcome; server: RunningServer; browser: Browser }
const pageDir = mkdtempSync(join(tmpdir(), 'svc-deployed-page-'))

beforeAll(async () => {
  // a chain that is not the devnet's, with its own chain id; the page is built from the file the command wrote
  context.chain = await freshChain(48_101)
  context.deployed = await deployTo(context.chain)
  const [payPageDir, browser] = await Promise.all([devnetPage(readPinnedDeployment(context.chain.out), pageDir), launchChromium()])
  context.browser = browser
  context.server = await createServer(deployedServerConfig(context.deployed.serverEnvironment), { logger: silentLogger, payPageDir })
}, 180_000)

afterAll(async () => {
  await context.browser?.close()
  await context.server?.close()
  await context.chain?.anvil.stop()
  rmSync(pageDir, { recursive: true, force: true })
})

test('behavior: a page built with the deployment file npm run deploy wrote pays on a chain that is not the devnet', async () => {
  const { chain, server, browser } = context
  const { clients, deployment, invoice, payer, merchant } = await seedPayment(chain, parseUnits('120', 6))
  // the merchant as a studio of the server (npm run keys -- create-studio): only its invoices are sponsored
  await server.stores.studios.createStudio({ vaultAddress: merchant.vault, chainId: deployment.chainId })
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } })
  await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl: chain.anvil.rpcUrl, chainId: chain.chainId })
  await page.goto(`${server.url}/pay/${invoice.id}`)
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  // an invoice issued without metadata: no name for the payee, so the page asks a second time
  await clickPay(page)
  await expect.poll(() => page.locator('#svc-widget-heading').textContent(), { timeout: 30_000 }).toBe('Payment received')
  const onChain = await clients.public.readContract({ address: deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoice.id] })
  expect({ status: onChain.status, payer: onChain.payer }).toEqual({ status: 2, payer: payer.vault })
  await page.close()
})
