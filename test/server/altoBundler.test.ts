import { getAddress, type Hex } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { devnetRoles } from '../../devnet/deploy'
import { startAlto, type Alto } from '../support/alto'
import { invoiceStatus, paymentReads } from '../support/paymentReads'
import { api, payThroughServer, useServer } from '../support/server'

const paid = invoiceStatus.paid
const executor = devnetRoles.externalBundlerExecutor.address

let alto: Alto | undefined
const ctx = useServer({
  async beforeServer(devnet) {
    alto = await startAlto({ rpcUrl: devnet.anvil.rpcUrl, entryPoint: devnet.deployment.entryPoint })
    // only the bundler is alto: sponsorship stays with the server's own VerifyingPaymaster signer
    return { BUNDLER_URL: alto.url }
  },
})
// registered after useServer's hooks, so it runs before them: alto stops while its chain is still up
afterAll(async () => {
  await alto?.stop()
})
const base = () => ctx.server.url
const chain = () => ctx.devnet.clients.public

const { balanceOf } = ctx.devnet
const { freshInvoice, freshPayer, onChainStatus, userOperationEvents, settled } = paymentReads(ctx)
const sends = async () => (await alto!.calls()).eth_sendUserOperation ?? 0

/** What the EntryPoint recorded for the operation, and who sent the transaction that carried it. */
async function inclusion(userOpHash: Hex) {
  const events = await userOperationEvents(userOpHash)
  const [event] = events
  if (!event) return { count: 0 }
  const { from } = await chain().getTransaction({ hash: event.transactionHash! })
  return { count: events.length, success: event.args.success, paymaster: event.args.paymaster, from: getAddress(from), txHash: event.transactionHash }
}

describe('the real ERC-4337 bundler @pimlico/alto as BUNDLER_URL', () => {
  test('behavior: a counterfactual vault pays an invoice: alto estimates the operation, accepts it and includes it', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    expect(await chain().getCode({ address: payer.vault })).toBeUndefined()
    const before = { calls: await alto!.calls(), balance: await balanceOf(payer.vault) }

    const { submit, prepared } = await payThroughServer(base(), invoice.id, payer)
    expect(prepared.body.userOp.factory).toBe(ctx.devnet.deployment.vaultFactory)
    await settled(invoice.id, submit)

    expect(await onChainStatus(invoice.id)).toBe(paid)
    expect(before.balance - (await balanceOf(payer.vault))).toBe(invoice.amount)
    expect(await inclusion(prepared.body.userOpHash)).toMatchObject({ count: 1, success: true, paymaster: ctx.devnet.deployment.paymaster, from: executor })
    const after = await alto!.calls()
    for (const method of ['eth_estimateUserOperationGas', 'eth_sendUserOperation']) {
      expect((after[method] ?? 0) - (before.calls[method] ?? 0), method).toBe(1)
    }
  })

  test('behavior: the same signed operation submitted again sends nothing new and answers what happened', async () => {
    const invoice = await freshInvoice()
    const payer = await freshPayer()
    const first = await payThroughServer(base(), invoice.id, payer)
    await settled(invoice.id, first.submit)
    const { txHash } = await inclusion(first.prepared.body.userOpHash)
    const before = { sends: await sends(), executorNonce: await chain().getTransactionCount({ address: executor }), balance: await balanceOf(payer.vault) }

    const again = await api(base(), `/v1/pay/${invoice.id}`, { userOp: first.userOp })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ status: 'confirmed', userOpHash: first.prepared.body.userOpHash, txHash })

    expect(await sends()).toBe(before.sends)
    expect(await chain().getTransactionCount({ address: executor })).toBe(before.executorNonce)
    expect(await balanceOf(payer.vault)).toBe(before.balance)
    expect((await inclusion(first.prepared.body.userOpHash)).count).toBe(1)
  })

  test('behavior: a vault deployed by its first payment pays the next invoice through alto without factory fields', async () => {
    const payer = await freshPayer()
    const firstInvoice = await freshInvoice()
    await settled(firstInvoice.id, (await payThroughServer(base(), firstInvoice.id, payer)).submit)
    const invoice = await freshInvoice()
    const balance = await balanceOf(payer.vault)

    const { submit, prepared } = await payThroughServer(base(), invoice.id, payer)
    expect(prepared.body.userOp.factory).toBeUndefined()
    await settled(invoice.id, submit)

    expect(await onChainStatus(invoice.id)).toBe(paid)
    expect(balance - (await balanceOf(payer.vault))).toBe(invoice.amount)
    expect(await inclusion(prepared.body.userOpHash)).toMatchObject({ count: 1, success: true, from: executor })
  })
})
