import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runMerchantCommand, type MerchantTarget } from '../../cli/merchantCommand'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { readDevnetFile, writeDevnetFile } from '../../devnet/devnetFile'
import { seedMerchantAccess, type SeededMerchantAccess } from '../../devnet/seedMerchantAccess'
import { bundledCli } from '../support/cliBundle'
import { useServer } from '../support/server'

// as npm start runs it: an event is indexed once its block is the head
const ctx = useServer({ overrides: { WEBHOOK_CONFIRMATIONS: '1', WEBHOOK_INTERVAL_MS: '100' } })
const dir = mkdtempSync(join(tmpdir(), 'svc-merchant-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let merchant: SeededMerchantAccess
beforeAll(async () => {
  merchant = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  const { deployment, anvil, seed } = ctx.devnet
  writeDevnetFile(dir, {
    chainId: deployment.chainId,
    rpcUrl: anvil.rpcUrl,
    serverUrl: ctx.server.url,
    storefrontUrl: 'http://127.0.0.1:8788',
    contracts: { entryPoint: deployment.entryPoint, token: deployment.token, registry: deployment.registry, vaultFactory: deployment.vaultFactory, paymaster: deployment.paymaster },
    merchant: { ...seed.merchant, studioId: merchant.studioId, apiKey: merchant.apiKey },
    payer: seed.payer,
    invoices: [],
    startedAt: new Date().toISOString(),
  })
})

/** The commands in this process, as `npm run merchant` runs them against the devnet.json above: the
 * lines it prints (a refusal throws). Starting the command line is the next two tests'. */
async function merchantCommand(...args: string[]) {
  const devnet = readDevnetFile(dir)
  const target: MerchantTarget = { serverUrl: devnet.serverUrl, chain: { rpcUrl: devnet.rpcUrl, token: devnet.contracts.token }, apiKey: devnet.merchant.apiKey }
  return { stdout: (await runMerchantCommand(target, args)).map((line) => `${line}\n`).join('') }
}

/** `npm run merchant -- …` as a newcomer types it, against the devnet.json above. */
async function merchantCli(...args: string[]) {
  const child = spawn(process.execPath, [await bundledCli('cli/merchant.ts'), ...args], { env: { ...process.env, SVC_DEVNET_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  return { code, stdout, stderr }
}

const onChain = (id: bigint) => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })

describe('npm run merchant', () => {
  test("default: the merchant's loop in five commands: a customer, an invoice to it, the list, its share link opening the invoice, a cancel", async () => {
    const created = await merchantCommand('customer', 'create', '--name', 'Globex Trading Ltd', '--email', 'ap@globex.example', '--street', '1 Dock Road', '--city', 'Leeds', '--postal', 'LS1 4AP', '--country', 'GB', '--registration', '07654321')
    const customerId = /^customer ([0-9a-f-]{36}) /.exec(created.stdout)![1]!

    const issued = await merchantCommand('invoice', 'issue', '--customer', customerId, '--amount', '250.50', '--due-days', '10', '--description', 'Conveyor retrofit')
    expect(issued).toMatchObject({ stdout: expect.stringMatching(/^invoice \d+ \(number \d+\) Issued, due \d{4}-\d{2}-\d{2}\nshare link http/) })
    const id = /^invoice (\d+)/.exec(issued.stdout)![1]!
    expect(await onChain(BigInt(id))).toMatchObject({ amount: 250_500_000n, status: 1 })

    await expect.poll(async () => (await merchantCommand('invoice', 'list', '--status', 'Issued')).stdout, { timeout: 10_000, interval: 200 }).toMatch(new RegExp(`^ *${id}  .* 250\\.5 \\w+  Issued$`, 'm'))

    const shared = await merchantCommand('invoice', 'share', '--invoice', id)
    const link = shared.stdout.trim()
    expect(link).toMatch(new RegExp(`/pay/${id}\\?token=svc_tk_`))
    const opened = await fetch(`${ctx.server.url}/v1/pay/${id}/metadata?token=${new URL(link).searchParams.get('token')}`).then((response) => response.json())
    expect(opened.metadata).toMatchObject({ payer: { name: 'Globex Trading Ltd', email: 'ap@globex.example' }, description: 'Conveyor retrofit', amount: '250.5' })

    expect(await merchantCommand('invoice', 'cancel', '--invoice', id)).toMatchObject({ stdout: expect.stringMatching(new RegExp(`^invoice ${id} Canceled \\(transaction 0x[0-9a-f]{64}\\)`)) })
    expect((await onChain(BigInt(id))).status).toBe(3)
    await expect.poll(async () => (await merchantCommand('invoice', 'list', '--status', 'Canceled')).stdout, { timeout: 10_000, interval: 200 }).toMatch(new RegExp(`^ *${id}  .*Canceled$`, 'm'))
  })

  test('behavior: the package\'s svc bin runs the same commands, reads as JSON too', async () => {
    const child = spawn(process.execPath, [join(process.cwd(), 'cli/svc.mjs'), 'customers', 'list', '--json'], { env: { ...process.env, SVC_DEVNET_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    expect(await new Promise<number | null>((resolve) => child.once('exit', resolve))).toBe(0)
    expect(JSON.parse(stdout).data.map((customer: { legalName: string }) => customer.legalName)).toContain('Acme Robotics GmbH')
    const packageJson = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { bin: Record<string, string> }
    expect(packageJson.bin.svc).toBe('cli/svc.mjs')
  })

  test("behavior: the server's refusal prints its status and code (exit 1); a command line it cannot read prints the usage (exit 2)", async () => {
    const refused = await merchantCli('invoice', 'issue', '--customer', crypto.randomUUID(), '--amount', '5')
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('404 NOT_FOUND') })
    const invalid = await merchantCli('customer', 'create', '--name', 'No Address GmbH', '--email', 'not-an-email', '--street', 'x', '--city', 'y', '--postal', 'z', '--country', 'DE', '--registration', 'HRB 1')
    expect(invalid).toMatchObject({ code: 1, stderr: expect.stringMatching(/^400 VALIDATION_ERROR: .*body\.email/) })
    expect(await merchantCli('invoice', 'issue', '--amount', 'lots')).toMatchObject({ code: 2, stderr: expect.stringContaining('--customer: missing') })
    expect(await merchantCli('invoice', 'refund')).toMatchObject({ code: 2, stderr: expect.stringContaining('invoice refund: not a command') })
  })
})
