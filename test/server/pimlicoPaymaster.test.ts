import { getAddress, http, isAddressEqual, parseUnits, type Address, type Hex } from 'viem'
import { createPaymasterClient, entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, describe, expect, test } from 'vitest'
import { startAlto, type Alto } from '../support/alto'
import { invoiceStatus, paymentReads } from '../support/paymentReads'
import { startPimlicoPaymaster } from '../support/pimlicoPaymaster'
import { startRecordingRpcProxy } from '../support/recordingRpcProxy'
import { payThroughServer, permitAndPrepare, useServer } from '../support/server'

const { issued, paid } = invoiceStatus
/** A permit that outlives pimlico's window (the SPEC allows up to 24 hours). */
const dayLongPermit = () => Math.floor(Date.now() / 1000) + 23 * 3_600

let alto: Alto | undefined
let pimlico: Awaited<ReturnType<typeof startPimlicoPaymaster>> | undefined
let proxy: Awaited<ReturnType<typeof startRecordingRpcProxy>>
let pimlicoPaymaster: Address

/** The paymaster pimlico's service sponsors with on this EntryPoint, as it answers for a bare operation. */
async function paymasterOf(url: string, devnet: { deployment: { chainId: number; entryPoint: Address } }) {
  const client = createPaymasterClient({ transport: http(url) })
  const { paymaster } = await client.getPaymasterStubData({
    chainId: devnet.deployment.chainId,
    entryPointAddress: devnet.deployment.entryPoint,
    sender: '0x000000000000000000000000000000000000dEaD',
    nonce: 0n,
    callData: '0x',
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
  })
  return getAddress(paymaster!)
}

const ctx = useServer({
  async beforeServer(devnet) {
    alto = await startAlto({ rpcUrl: devnet.anvil.rpcUrl, entryPoint: devnet.deployment.entryPoint })
    pimlico = await startPimlicoPaymaster({ rpcUrl: devnet.anvil.rpcUrl, altoUrl: alto.url })
    proxy = await startRecordingRpcProxy(pimlico.url)
    pimlicoPaymaster = await paymasterOf(pimlico.url, devnet)
    // the operator pins the paymaster its service sponsors with, as the devnet pins ours
    return { BUNDLER_URL: alto.url, PAYMASTER_URL: proxy.url, PAYMASTER_ADDRESS: pimlicoPaymaster }
  },
})
// registered after useServer's hooks, so they run before them: the services stop while their chain is up
afterAll(async () => {
  await proxy?.stop()
  await pimlico?.stop()
  await alto?.stop()
})
const base = () => ctx.server.url
const chain = () => ctx.devnet.clients.public

const { balanceOf } = ctx.devnet
const { freshInvoice, freshPayer, onChainStatus, userOperationEvents, settled } = paymentReads(ctx)
const depositOf = (address: Address) =>
  chain().readContract({ address: ctx.devnet.deployment.entryPoint, abi: entryPoint07Abi, functionName: 'balanceOf', args: [address] })

describe("pimlico's mock ERC-7677 paymaster service as PAYMASTER_URL, with alto as BUNDLER_URL", () => {
  test("behavior: a payer with no ETH pays an invoice end to end: pimlico's paymaster, not ours, pays the gas from its deposit", async () => {
    const { seed, deployment } = ctx.devnet
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    expect(isAddressEqual(pimlicoPaymaster, deployment.paymaster)).toBe(false)
    expect(await chain().getBalance({ address: payer.vault })).toBe(0n)
    expect(await chain().getBalance({ address: payer.owner })).toBe(0n)
    const before = { merchant: await balanceOf(seed.merchant.vault), deposit: await depositOf(pimlicoPaymaster), calls: { ...proxy.calls } }

    const { submit, prepared } = await payThroughServer(base(), invoice.id, payer, dayLongPermit())
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200)
    expect(prepared.body.userOp.paymaster).toBe(pimlicoPaymaster)
    await settled(invoice.id, submit)

    expect(await onChainStatus(invoice.id)).toBe(paid)
    const fee = invoice.amount / 100n
    expect(await balanceOf(payer.vault)).toBe(parseUnits('100', 6) - invoice.amount)
    expect(await balanceOf(seed.merchant.vault)).toBe(before.merchant + invoice.amount - fee)
    const [event, ...more] = await userOperationEvents(prepared.body.userOpHash)
    expect(more).toEqual([])
    expect(event!.args).toMatchObject({ success: true, sender: payer.vault, paymaster: pimlicoPaymaster })
    expect(before.deposit - (await depositOf(pimlicoPaymaster))).toBe(event!.args.actualGasCost)
    expect(await chain().getBalance({ address: payer.vault })).toBe(0n)
    expect(await chain().getBalance({ address: payer.owner })).toBe(0n)
    for (const method of ['pm_getPaymasterStubData', 'pm_getPaymasterData']) {
      expect((proxy.calls[method] ?? 0) - (before.calls[method] ?? 0), method).toBe(1)
    }
  })

  test("behavior: pimlico's fixed window outlives an hour-long permit: prepare answers 502 PAYMASTER_SPONSORSHIP_INVALID instead of an operation the widget would refuse", async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const before = { ...proxy.calls }
    const { permit, prepared } = await permitAndPrepare(base(), invoice.id, payer)
    const permitDeadline = Number(permit.body.permitToSign.message.deadline)
    expect(permitDeadline - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3_600)
    expect(prepared.status).toBe(502)
    expect(prepared.body).toMatchObject({ error: 'PAYMASTER_SPONSORSHIP_INVALID', code: 'PAYMASTER_SPONSORSHIP_INVALID' })
    expect(prepared.body.message).toContain(`after your permit ends at ${new Date(permitDeadline * 1000).toISOString()}`)
    // the service was asked (its answer is what is refused) and nothing reached the chain
    expect((proxy.calls.pm_getPaymasterData ?? 0) - (before.pm_getPaymasterData ?? 0)).toBe(1)
    expect(await onChainStatus(invoice.id)).toBe(issued)
    expect(await balanceOf(payer.vault)).toBe(parseUnits('100', 6))
  })

  test("behavior: a sponsorship its own paymaster does not accept (one byte of the service's signature changed) is refused: 502 PAYMASTER_SPONSORSHIP_INVALID", async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    proxy.alter('pm_getPaymasterData', (reply) => {
      const result = reply.result as { paymasterData: Hex }
      // the last byte of the signature's r (r, s and v close paymasterData): a signature, not the paymaster signer's
      const at = result.paymasterData.length - 68
      const flipped = (parseInt(result.paymasterData.slice(at, at + 2), 16) ^ 0xff).toString(16).padStart(2, '0')
      return { ...reply, result: { ...result, paymasterData: `${result.paymasterData.slice(0, at)}${flipped}${result.paymasterData.slice(at + 2)}` } }
    })
    try {
      const { prepared } = await permitAndPrepare(base(), invoice.id, payer, dayLongPermit())
      expect(prepared.status).toBe(502)
      expect(prepared.body).toMatchObject({ error: 'PAYMASTER_SPONSORSHIP_INVALID', code: 'PAYMASTER_SPONSORSHIP_INVALID' })
      expect(prepared.body.message).toContain("the paymaster service's sponsorship does not validate")
    } finally {
      proxy.alter('pm_getPaymasterData', undefined)
    }
    expect(await onChainStatus(invoice.id)).toBe(issued)
  })

  test('behavior: a bad permit asks the paymaster service for nothing', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const impostor = await freshPayer()
    const before = { ...proxy.calls }
    const { prepared } = await permitAndPrepare(base(), invoice.id, { ...payer, ownerPrivateKey: impostor.ownerPrivateKey }, dayLongPermit())
    expect(prepared.status).toBe(400)
    expect(prepared.body).toMatchObject({ error: 'PERMIT_SIGNATURE_INVALID', code: 'PERMIT_SIGNATURE_INVALID' })
    expect(proxy.calls).toEqual(before)
  })

  test('behavior: with the paymaster service unreachable prepare is 502 PAYMASTER_UNAVAILABLE; once it is back the same payer pays', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    await proxy.stop()
    try {
      const { prepared } = await permitAndPrepare(base(), invoice.id, payer, dayLongPermit())
      expect(prepared.status).toBe(502)
      expect(prepared.body).toMatchObject({ error: 'PAYMASTER_UNAVAILABLE', code: 'PAYMASTER_UNAVAILABLE' })
    } finally {
      await proxy.start()
    }
    expect(await onChainStatus(invoice.id)).toBe(issued)
    const { submit } = await payThroughServer(base(), invoice.id, payer, dayLongPermit())
    await settled(invoice.id, submit)
    expect(await onChainStatus(invoice.id)).toBe(paid)
    expect(await balanceOf(payer.vault)).toBe(parseUnits('100', 6) - invoice.amount)
  })
})
