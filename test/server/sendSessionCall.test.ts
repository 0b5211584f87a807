import { createWalletClient, http, parseEther, parseEventLogs, zeroAddress } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { localBundler } from '../../server/chain/bundler'
import { chainFor, createChainClient } from '../../server/chain/chainClient'
import { localVerifyingSponsor } from '../../server/chain/sponsor'
import { createOperationQuota } from '../../server/merchant/signer/operationQuota'
import { createStudioStore } from '../../server/store/studioStore'
import { sendSessionCall, type SessionCall, type SessionSignerDependencies } from '../../server/merchant/signer/sendSessionCall'
import { devnetRoles } from '../../devnet/deploy'
import { useDevnet } from '../support/devnet'
import { useDatabases } from '../support/postgres'

const databases = useDatabases()
const devnet = useDevnet()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const

/** The signer's parts as the server wires them, over this devnet; `registered` says whether the
 * vault is one of our studios' (sponsored) or not (its own deposit pays). */
async function signerParts({ registered }: { registered: boolean }) {
  const executor = privateKeyToAccount(generatePrivateKey())
  await devnet.test.setBalance({ address: executor.address, value: parseEther('1') })
  const client = createChainClient(devnet.deployment.chainId, devnet.anvil.rpcUrl, () => () => {})
  const wallet = createWalletClient({ chain: chainFor(devnet.deployment.chainId, devnet.anvil.rpcUrl), transport: http(devnet.anvil.rpcUrl), account: executor })
  // the real count, on a database of its own: one studio owning the vault
  const db = await databases.open('postgres')
  const studio = await createStudioStore(db).createStudio({ vaultAddress: devnet.seed.merchant.vault, chainId: devnet.deployment.chainId })
  const quota = createOperationQuota(db, { perDay: 10, perMonth: 100 })
  const dependencies: SessionSignerDependencies = {
    client,
    deployment: devnet.deployment,
    bundler: localBundler({ client, wallet, deployment: devnet.deployment }),
    sponsor: localVerifyingSponsor({ deployment: devnet.deployment, signer: devnetRoles.paymasterSigner }),
    signer: privateKeyToAccount(devnet.seed.serverSigner.privateKey),
    registeredMerchant: async () => registered,
    quota,
    now: Date.now,
    submitWaitMs: 5_000,
    receiptPollMs: 50,
    sponsorshipWindowSeconds: 900,
  }
  return { dependencies, studioId: studio.id, used: async () => (await quota.usage(studio.id)).used }
}

const send = ({ dependencies, studioId }: { dependencies: SessionSignerDependencies; studioId: string }, call: SessionCall) =>
  sendSessionCall(dependencies, { studioId, vault: devnet.seed.merchant.vault, prepare: async () => ({ call, context: null }) })

async function issueCall(): Promise<SessionCall> {
  const { timestamp } = await devnet.clients.public.getBlock()
  return { kind: 'Issue', registry: devnet.deployment.registry, token: devnet.deployment.token, amount: 7_000_000n, dueAt: timestamp + 3_600n, metaHash: `0x${'cd'.repeat(32)}`, tokenURI: '' }
}

describe('sendSessionCall', () => {
  test("default: an unregistered vault's operation is paid from its own deposit, counts no quota, and confirms with its own logs", async () => {
    const parts = await signerParts({ registered: false })
    const outcome = await send(parts, await issueCall())
    expect(outcome.status).toBe('confirmed')
    if (outcome.status !== 'confirmed') return
    const [issued] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs: outcome.logs })
    expect(issued?.args).toMatchObject({ merchant: devnet.seed.merchant.vault, amount: 7_000_000n })
    expect(await parts.used()).toBe(0)
    const receipt = await devnet.clients.public.getTransactionReceipt({ hash: outcome.txHash })
    const [operation] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    expect(operation?.args).toMatchObject({ userOpHash: outcome.userOpHash, sender: devnet.seed.merchant.vault, paymaster: zeroAddress, success: true })
  })

  test("behavior: a sponsored operation whose sending is called off before it leaves (the caller's lease was taken over) gives the studio's quota back, and the chain holds nothing new", async () => {
    const parts = await signerParts({ registered: true })
    const count = () => devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
    const before = await count()
    const calledOff = sendSessionCall(parts.dependencies, {
      studioId: parts.studioId,
      vault: devnet.seed.merchant.vault,
      prepare: async () => ({ call: await issueCall(), context: null }),
      beforeSend: async () => {
        throw new Error('the idempotency lease was taken over')
      },
    })
    await expect(calledOff).rejects.toThrow('the idempotency lease was taken over')
    expect(await parts.used()).toBe(0)
    expect(await count()).toBe(before)
  })

  test('behavior: a cancel the registry refuses (already canceled) is refused before it is sent, and counts nothing', async () => {
    const parts = await signerParts({ registered: true })
    const issued = await send(parts, await issueCall())
    if (issued.status !== 'confirmed') throw new Error('not confirmed')
    const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs: issued.logs })
    const cancel: SessionCall = { kind: 'Cancel', registry: devnet.deployment.registry, invoice: event!.args.id }
    expect((await send(parts, cancel)).status).toBe('confirmed')
    expect(await parts.used()).toBe(2)
    await expect(send(parts, cancel)).rejects.toMatchObject({ code: 'TRANSACTION_FAILED' })
    expect(await parts.used()).toBe(2)
    const invoice = await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [event!.args.id] })
    expect(invoice.status).toBe(status.Canceled)
  })

  test('behavior: anything but issue and cancel on the configured registry is refused before it is built or signed', async () => {
    const parts = await signerParts({ registered: true })
    const other = privateKeyToAccount(generatePrivateKey()).address
    const withdrawal = { kind: 'Withdrawal', token: devnet.deployment.token, amount: 1n, to: other } as unknown as SessionCall
    await expect(send(parts, withdrawal)).rejects.toMatchObject({ code: 'SESSION_CALL_REFUSED' })
    await expect(send(parts, { ...(await issueCall()), registry: other } as SessionCall)).rejects.toMatchObject({ code: 'SESSION_CALL_REFUSED' })
    expect(await parts.used()).toBe(0)
  })
})
