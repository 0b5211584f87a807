import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { parseUnits } from 'viem'
import { expect, onTestFinished, test } from 'vitest'
import { devnetEnv } from '../../devnet/devnetConfig'
import { openMigratedDatabase } from '../../server/store/openStores'
import { createStudioStore } from '../../server/store/studioStore'
import { bundledCli } from '../support/cliBundle'
import { useDevnet } from '../support/devnet'
import { useMigratedDataDirs } from '../support/migratedDataDir'
import { api, permitAndPrepare, signUserOp } from '../support/server'

const devnet = useDevnet()
const dataDirs = useMigratedDataDirs()

/** `npm run serve` in its own process, against this file's devnet; ready once it logs where it listens. */
async function startServe(env: Record<string, string>) {
  const dataDir = await dataDirs.create()
  // the demo merchant as a studio of this server, as `npm run keys -- create-studio` makes one
  // (test/auth/keysCommand.test.ts runs it): only its invoices are sponsored
  const setup = await openMigratedDatabase({ DATA_DIR: dataDir })
  await createStudioStore(setup).createStudio({ vaultAddress: devnet.seed.merchant.vault, chainId: devnet.deployment.chainId })
  await setup.close()
  const environment = { ...devnetEnv(devnet, { port: 0, dataDir }), ...env }
  const child = spawn(process.execPath, [await bundledCli('server/serve.ts')], {
    env: { ...process.env, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  onTestFinished(async () => {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })
  const logged = () => output.split('\n').filter(Boolean).map((line) => JSON.parse(line))
  await expect.poll(() => child.exitCode === null && logged().some((line) => line.msg === 'listening'), { timeout: 30_000 }).toBe(true)
  const url: string = logged().find((line) => line.msg === 'listening').url
  return { url, child, exited, logged }
}

test('behavior: on SIGTERM the server stops taking connections, answers the submission in flight, closes and exits 0', { timeout: 90_000 }, async () => {
  const serve = await startServe({ SUBMIT_WAIT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '30000' })
  const invoice = await devnet.newInvoice(parseUnits('15', 6))
  const payer = await devnet.newPayer(parseUnits('100', 6))
  const { prepared, permitSignature } = await permitAndPrepare(serve.url, invoice.id, payer)
  expect(prepared.status).toBe(200)
  const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)

  // blocks wait for the test: the submission is sent, then waits for its receipt
  await devnet.test.setAutomine(false)
  onTestFinished(() => devnet.test.setAutomine(true))
  const { v, r, s } = permitSignature
  const submitting = api(serve.url, `/v1/pay/${invoice.id}`, { userOp, permitSignature: { v, r, s } })
  await expect.poll(async () => (await devnet.test.getTxpoolStatus()).pending, { timeout: 10_000 }).toBe(1)

  serve.child.kill('SIGTERM')
  await expect.poll(() => serve.logged().some((line) => line.msg === 'stopping: finishing requests in flight')).toBe(true)
  await expect(fetch(`${serve.url}/healthz`)).rejects.toThrow()
  expect(serve.child.exitCode).toBeNull()

  await devnet.test.mine({ blocks: 1 })
  const submitted = await submitting
  expect(submitted.status).toBe(200)
  expect(submitted.body).toMatchObject({ status: 'confirmed', userOpHash: prepared.body.userOpHash })
  expect(await serve.exited).toBe(0)
  expect(serve.logged().at(-1)).toMatchObject({ msg: 'stopped' })
})

test('behavior: a stop that outlasts SHUTDOWN_TIMEOUT_MS exits 1 with the requests unfinished', { timeout: 90_000 }, async () => {
  const serve = await startServe({ SUBMIT_WAIT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '500' })
  const invoice = await devnet.newInvoice(parseUnits('15', 6))
  const payer = await devnet.newPayer(parseUnits('100', 6))
  const { prepared, permitSignature } = await permitAndPrepare(serve.url, invoice.id, payer)
  const userOp = await signUserOp(payer, prepared.body.userOp, prepared.body.userOpHash)
  await devnet.test.setAutomine(false)
  onTestFinished(async () => {
    await devnet.test.mine({ blocks: 1 })
    await devnet.test.setAutomine(true)
  })
  const { v, r, s } = permitSignature
  const submitting = api(serve.url, `/v1/pay/${invoice.id}`, { userOp, permitSignature: { v, r, s } }).catch((error: Error) => error)
  await expect.poll(async () => (await devnet.test.getTxpoolStatus()).pending, { timeout: 10_000 }).toBe(1)

  const signalled = performance.now()
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(1)
  expect(performance.now() - signalled).toBeLessThan(5_000)
  expect(serve.logged()).toContainEqual(expect.objectContaining({ level: 'error', msg: 'stopping took too long: exiting with requests unfinished' }))
  // the client sees its connection drop: it submits the same operation again, elsewhere
  expect(await submitting).toBeInstanceOf(Error)
})
