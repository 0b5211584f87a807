import { encodeFunctionData, parseEther, parseEventLogs, parseUnits, zeroAddress, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { merchantVaultAbi } from '../../contracts/artifacts/MerchantVault'
import { sessionSignerValidatorAbi } from '../../contracts/artifacts/SessionSignerValidator'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { handleOwnOperation, sendMerchantOperation, sessionNonceKey, unsignedMerchantOperation, type MerchantOperationSigner } from '../../devnet/merchantOperation'
import { createMerchant, mintTo } from '../../devnet/seed'
import { encodeMerchantVaultCall, type MerchantVaultCall } from '../../shared/merchantVaultCall'
import { merchantVaultTypedData, ownerOperationSignature } from '../../shared/merchantVaultMessage'
import { useDevnet } from '../support/devnet'
import { payDirectly } from '../support/payDirectly'

const devnet = useDevnet()
const status = { Issued: 1, Paid: 2, Canceled: 3 } as const

/** A fresh merchant (its vault deployed, with an EntryPoint deposit) and a funded key to bundle with. */
async function newMerchant() {
  const merchant = await createMerchant(devnet.clients, devnet.deployment)
  const bundler = privateKeyToAccount(generatePrivateKey())
  await devnet.test.setBalance({ address: bundler.address, value: parseEther('10') })
  const owner: MerchantOperationSigner = { kind: 'owner', privateKey: merchant.ownerPrivateKey }
  const send = (call: MerchantVaultCall, signer: MerchantOperationSigner = owner, validUntil?: bigint) =>
    sendMerchantOperation(devnet.anvil.rpcUrl, devnet.deployment, { vault: merchant.vault, call, signer, bundler, ...(validUntil === undefined ? {} : { validUntil }) })
  return { ...merchant, bundler, send }
}

async function issueCall(amount = parseUnits('50', 6)): Promise<MerchantVaultCall> {
  const { timestamp } = await devnet.clients.public.getBlock()
  return { kind: 'Issue', registry: devnet.deployment.registry, token: devnet.deployment.token, amount, dueAt: timestamp + 86_400n, metaHash: `0x${'ab'.repeat(32)}`, tokenURI: '' }
}

function issuedId(logs: Parameters<typeof parseEventLogs>[0]['logs']): bigint {
  const [event] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceIssued', logs })
  if (!event) throw new Error('no InvoiceIssued')
  return event.args.id
}

const readInvoice = (id: bigint) => devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [id] })
const balanceOf = (address: Address) => devnet.clients.public.readContract({ address: devnet.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] })

describe('MerchantVault', () => {
  test("behavior: the owner issues and cancels through typed messages its wallet shows in full; the registry records the vault as merchant", async () => {
    const merchant = await newMerchant()
    const issued = await merchant.send(await issueCall())
    expect(issued.success).toBe(true)
    const id = issuedId(issued.receipt.logs)
    expect(await readInvoice(id)).toMatchObject({ merchant: merchant.vault, status: status.Issued })
    expect((await merchant.send({ kind: 'Cancel', registry: devnet.deployment.registry, invoice: id })).success).toBe(true)
    expect((await readInvoice(id)).status).toBe(status.Canceled)
  })

  test("behavior: the owner's bare signature of the operation's hash (what a wallet would show as a hash) is refused, and so is a typed message whose end is 0", async () => {
    const merchant = await newMerchant()
    const call = await issueCall()
    const { userOp, userOpHash: hash } = await unsignedMerchantOperation(devnet.clients.public, devnet.deployment, { vault: merchant.vault, callData: encodeMerchantVaultCall(call), key: 0n })
    const owner = privateKeyToAccount(merchant.ownerPrivateKey)
    const send = (signature: Hex) => handleOwnOperation(devnet.anvil.rpcUrl, devnet.deployment, merchant.bundler, { ...userOp, signature })
    const { timestamp } = await devnet.clients.public.getBlock()
    await expect(send(ownerOperationSignature(timestamp + 600n, await owner.signMessage({ message: { raw: hash } })))).rejects.toThrow(/AA24 signature error/)
    const typed = await owner.signTypedData(merchantVaultTypedData({ chainId: devnet.deployment.chainId, vault: merchant.vault, call, validUntil: 0n, operation: hash }) as never)
    await expect(send(`0x000000000000${typed.slice(2)}`)).rejects.toThrow(/AA24 signature error/)
  })

  test('behavior: withdrawal moves exactly the amount to the named address, signed by the owner; the session signer cannot sign one', async () => {
    const merchant = await newMerchant()
    await mintTo(devnet.clients, devnet.deployment, merchant.vault, parseUnits('100', 6))
    const to = privateKeyToAccount(generatePrivateKey()).address
    const { signer } = await withSessionKey(merchant)
    const withdrawal: MerchantVaultCall = { kind: 'Withdrawal', token: devnet.deployment.token, amount: parseUnits('40', 6), to }
    await expect(merchant.send(withdrawal, signer)).rejects.toThrow(/AA24 signature error/)
    expect(await balanceOf(to)).toBe(0n)
    expect((await merchant.send(withdrawal)).success).toBe(true)
    expect(await balanceOf(to)).toBe(parseUnits('40', 6))
    expect(await balanceOf(merchant.vault)).toBe(parseUnits('60', 6))
  })

  describe('the session signer', () => {
    test('behavior: it issues and cancels on its registry, and the module says whose key and until when', async () => {
      const merchant = await newMerchant()
      const { session, signer, until } = await withSessionKey(merchant)
      expect(await devnet.clients.public.readContract({ address: devnet.deployment.sessionValidator!, abi: sessionSignerValidatorAbi, functionName: 'sessionOf', args: [merchant.vault] })).toEqual([
        session.address,
        devnet.deployment.registry,
        Number(until),
      ])
      const issued = await merchant.send(await issueCall(), signer)
      expect(issued.success).toBe(true)
      const id = issuedId(issued.receipt.logs)
      expect((await merchant.send({ kind: 'Cancel', registry: devnet.deployment.registry, invoice: id }, signer)).success).toBe(true)
      expect((await readInvoice(id)).status).toBe(status.Canceled)
    })

    test("behavior: it is refused for anything else: a transfer out of the vault, another registry, a refund, another session, the account's own execute", async () => {
      const merchant = await newMerchant()
      await mintTo(devnet.clients, devnet.deployment, merchant.vault, parseUnits('10', 6))
      const { signer, session } = await withSessionKey(merchant)
      const other = privateKeyToAccount(generatePrivateKey()).address
      const refused: MerchantVaultCall[] = [
        { kind: 'Withdrawal', token: devnet.deployment.token, amount: 1n, to: session.address },
        { ...(await issueCall()), registry: other } as MerchantVaultCall,
        { kind: 'Cancel', registry: other, invoice: 1n },
        { kind: 'Refund', registry: devnet.deployment.registry, invoice: 1n, payer: other, token: devnet.deployment.token, amount: 1n },
        { kind: 'StartSession', signer: other, registry: devnet.deployment.registry, sessionUntil: 2n ** 40n },
        { kind: 'EndSession' },
      ]
      for (const call of refused) await expect(merchant.send(call, signer)).rejects.toThrow(/AA24 signature error/)
      // the account's generic execute, a plain token transfer: no validator accepts it
      const transfer = encodeFunctionData({ abi: stablecoinAbi, functionName: 'transfer', args: [session.address, 1n] })
      const execute = encodeFunctionData({ abi: merchantVaultAbi, functionName: 'execute', args: [`0x${'00'.repeat(32)}`, `${devnet.deployment.token}${'0'.repeat(64)}${transfer.slice(2)}` as Hex] })
      await expect(sendRaw(merchant, execute, sessionNonceKey(devnet.deployment.sessionValidator!), session)).rejects.toThrow(/AA24 signature error/)
      expect(await balanceOf(session.address)).toBe(0n)
      expect(await balanceOf(merchant.vault)).toBe(parseUnits('10', 6))
    })

    test('behavior: after its end, and after the owner ends it, it is refused', async () => {
      const merchant = await newMerchant()
      const { signer } = await withSessionKey(merchant, 600n)
      await devnet.test.increaseTime({ seconds: 601 })
      await devnet.test.mine({ blocks: 1 })
      await expect(merchant.send(await issueCall(), signer)).rejects.toThrow(/AA22 expired or not due/)

      const again = await withSessionKey(merchant)
      expect((await merchant.send(await issueCall(), again.signer)).success).toBe(true)
      expect((await merchant.send({ kind: 'EndSession' })).success).toBe(true)
      await expect(merchant.send(await issueCall(), again.signer)).rejects.toThrow(/AA24 signature error/)
      expect(await devnet.clients.public.readContract({ address: devnet.deployment.sessionValidator!, abi: sessionSignerValidatorAbi, functionName: 'sessionOf', args: [merchant.vault] })).toEqual([zeroAddress, zeroAddress, 0])
    })
  })

  describe('refunds', () => {
    test("behavior: two partial refunds reach the payer the registry recorded, each an event and the total readable from the registry; a third beyond what was paid is refused before anything moves", async () => {
      const merchant = await newMerchant()
      const amount = parseUnits('80', 6)
      const id = issuedId((await merchant.send(await issueCall(amount))).receipt.logs)
      const { payer: { vault: payer } } = await payDirectly(devnet, id, amount)
      const merchantHeld = await balanceOf(merchant.vault)
      const refund = (value: bigint): MerchantVaultCall => ({ kind: 'Refund', registry: devnet.deployment.registry, invoice: id, payer, token: devnet.deployment.token, amount: value })

      const first = await merchant.send(refund(parseUnits('30', 6)))
      expect(first.success).toBe(true)
      expect(parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoiceRefunded', logs: first.receipt.logs })[0]!.args).toMatchObject({ id, payer, merchant: merchant.vault, amount: parseUnits('30', 6), refundedTotal: parseUnits('30', 6) })
      // the fee was the merchant's: what it received is less than the gross, so it tops up to make the payer whole
      await mintTo(devnet.clients, devnet.deployment, merchant.vault, parseUnits('10', 6))
      expect((await merchant.send(refund(parseUnits('50', 6)))).success).toBe(true)
      expect(await devnet.clients.public.readContract({ address: devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'refundedAmount', args: [id] })).toBe(amount)
      expect(await balanceOf(payer)).toBe(amount)

      const beyond = await merchant.send(refund(1n))
      expect(beyond.success).toBe(false)
      expect(await balanceOf(payer)).toBe(amount)
      expect(await balanceOf(merchant.vault)).toBe(merchantHeld + parseUnits('10', 6) - amount)
    })

    test('behavior: a refund naming someone other than the recorded payer reverts, and nothing moves', async () => {
      const merchant = await newMerchant()
      const amount = parseUnits('20', 6)
      const id = issuedId((await merchant.send(await issueCall(amount))).receipt.logs)
      await payDirectly(devnet, id, amount)
      const stranger = privateKeyToAccount(generatePrivateKey()).address
      const held = await balanceOf(merchant.vault)
      const outcome = await merchant.send({ kind: 'Refund', registry: devnet.deployment.registry, invoice: id, payer: stranger, token: devnet.deployment.token, amount: 1n })
      expect(outcome.success).toBe(false)
      expect(await balanceOf(stranger)).toBe(0n)
      expect(await balanceOf(merchant.vault)).toBe(held)
    })
  })
})

/** A session signer started by the owner, and the key to sign with. */
async function withSessionKey(merchant: Awaited<ReturnType<typeof newMerchant>>, seconds = 3_600n) {
  const privateKey = generatePrivateKey()
  const session = privateKeyToAccount(privateKey)
  const { timestamp } = await devnet.clients.public.getBlock()
  const until = timestamp + seconds
  const started = await merchant.send({ kind: 'StartSession', signer: session.address, registry: devnet.deployment.registry, sessionUntil: until })
  expect(started.success).toBe(true)
  return { session, until, signer: { kind: 'session', privateKey } as MerchantOperationSigner }
}

/** An operation with any callData, signed by `key` over its hash, under nonce key `key192`. */
async function sendRaw(merchant: Awaited<ReturnType<typeof newMerchant>>, callData: Hex, key192: bigint, key: ReturnType<typeof privateKeyToAccount>) {
  const { userOp, userOpHash } = await unsignedMerchantOperation(devnet.clients.public, devnet.deployment, { vault: merchant.vault, callData, key: key192 })
  return handleOwnOperation(devnet.anvil.rpcUrl, devnet.deployment, merchant.bundler, { ...userOp, signature: await key.signMessage({ message: { raw: userOpHash } }) })
}
