import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http } from 'viem'
import { afterAll, expect, onTestFinished, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { readDevnetFile } from '../../server/devnet/devnetFile'

const dir = mkdtempSync(join(tmpdir(), 'svc-devnet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

test('behavior: npm start brings the devnet up with no configuration, writes devnet.json, and stops cleanly on Ctrl-C', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
    env: { ...process.env, SVC_DEVNET_DIR: dir, DEVNET_RPC_PORT: '0', PORT: '0', STOREFRONT_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))

  onTestFinished(() => {
    // SIGINT lets start.ts stop anvil too; a SIGKILL would orphan it
    if (child.exitCode === null) child.kill('SIGINT')
  })
  const file = await until(() => (existsSync(join(dir, 'devnet.json')) ? readDevnetFile(dir) : undefined), 30_000)
  await until(() => (/devnet ready in \d+ ms/.test(output) ? true : undefined), 5_000)
  const client = createPublicClient({ transport: http(file.rpcUrl) })
  expect(await client.getChainId()).toBe(file.chainId)
  expect(await client.getCode({ address: file.contracts.entryPoint })).toMatch(/^0x.+/)
  expect(file.invoices.length).toBeGreaterThanOrEqual(3)
  for (const invoice of file.invoices) {
    const stored = await client.readContract({ address: file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(invoice.id)] })
    expect(stored.amount.toString()).toBe(invoice.amount)
    expect(stored.merchant).toBe(file.merchant.vault)
  }
  expect(await client.readContract({ address: file.contracts.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [file.payer.vault] })).toBeGreaterThan(0n)
  expect(await client.getCode({ address: file.payer.vault })).toBeUndefined()

  const invoice = file.invoices[0]!
  const served = await (await fetch(`${file.serverUrl}/v1/pay/${invoice.id}`)).json()
  expect(served.data).toMatchObject({ id: invoice.id, amount: invoice.amount, status: 'Issued' })
  const token = new URL(invoice.shareLink).searchParams.get('token')
  expect(token).toMatch(/^svc_tk_[A-Za-z0-9_-]{43}$/)
  const opened = await (await fetch(`${file.serverUrl}/v1/pay/${invoice.id}/metadata?token=${token}`)).json()
  expect(opened.accessLevel).toBe('full')
  expect(opened.metadata.invoiceNumber).toBe(invoice.invoiceNumber)

  child.kill('SIGINT')
  expect(await exited).toBe(0)
  await expect(client.getChainId()).rejects.toThrow()
  await expect(fetch(`${file.serverUrl}/v1/pay/${invoice.id}`)).rejects.toThrow()
})
