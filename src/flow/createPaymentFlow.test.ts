import { concat, getAddress, recoverTypedDataAddress, type Address, type Hex } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { decodeFundedPayCallData } from '../../shared/fundedPayCall'
import { decodePayCallData } from '../../shared/payCall'
import { paymentTypedData } from '../../shared/paymentMessage'
import { permitTypes } from '../../shared/permit'
import { type PermitToSign, type WireInvoice } from '../../shared/wire'
import { fromWireUserOp } from '../../shared/userOpWire'
import type { OnchainInvoice } from '../chain/readInvoice'
import { prepareTestPayment, testDeployment, testFeeBps, testInvoice, testOnchainInvoice } from '../verify/preparedPayment.fixture'
import { verifyPermitToSign } from '../verify/verifyPermitToSign'
import { verifyFundingPermitToSign } from '../verify/verifyFundingPermitToSign'
import { verifyPreparedPayment } from '../verify/verifyPreparedPayment'
import type { PrepareResponse } from '../api/createPayApi'
import type { SimulatePaymentReturnType } from '../chain/simulatePayment'
import { ApiError } from '../api/apiError'
import { createPaymentFlow, type PaymentFlow } from './createPaymentFlow'
import type { PaymentFlowDependencies } from './paymentFlowDependencies'
import type { SubmitRequest } from '../api/createPayApi'
import type { PaymentState, PaymentStateName } from './paymentState'
import { pendingPollMs } from './reduce'

const txHash: Hex = `0x${'cd'.repeat(32)}`
const rejection = Object.assign(new Error('User rejected the request.'), { code: 4001 })

function someAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

/** A payer with a real key; a chain (the pinned RPC's view and the wallet's node's) and a wallet that
 * answer from plain variables; a server that prepares real, sponsored operations (checked by the real
 * verifiers) and, when honest, gets them executed on that chain. Tests swap single functions. */
function setup({ balance = 10_000_000_000n, walletChainId = 31337, deployed = false, accountBalance = 0n, sendsTransactions = true } = {}) {
  const deployment = testDeployment()
  const owner = privateKeyToAccount(generatePrivateKey())
  const vault = someAddress()
  const paymasterSigner = privateKeyToAccount(generatePrivateKey())
  const invoice = testInvoice(deployment)
  const world = {
    time: Date.UTC(2026, 0, 15, 12),
    /** What the server says. */
    invoice,
    /** What the registry holds, read through the pinned RPC: the same invoice, unless a test makes the server lie. */
    onchain: testOnchainInvoice(invoice) as OnchainInvoice | null,
    /** The rate the registry charges the merchant now (its feeBpsFor), read through the pinned RPC. */
    feeBps: testFeeBps,
    /** The rate the server prepares at: the chain's, unless a test makes it stale. */
    serverFeeBps: undefined as number | undefined,
    /** What the wallet's own node reads of the registry. */
    walletView: (onchain: OnchainInvoice | null) => onchain,
    /** The pinned RPC does not answer. */
    rpcDown: false,
    /** What running the prepared operation through the pinned RPC shows, when not a plain payment. */
    simulation: null as SimulatePaymentReturnType | null,
    /** The transaction of the registry's InvoicePaid event. */
    settlement: null as Hex | null,
    entryPointNonce: 0n,
    permitNonce: 0n,
    deployed,
    balance,
    /** The token held by the payer's own account, and its permit nonce. */
    accountBalance,
    sendsTransactions,
    accountNonce: 0n,
    /** A dishonest server: changes the funding permit it offers. */
    fundingTamper: (message: PermitToSign['message']) => message,
    walletChainId,
    /** Sleeps of more than 0 ms never end: the flow stays where it is until the payer acts. */
    holdWaits: false,
    calls: [] as string[],
    prepared: [] as PrepareResponse[],
    submitted: [] as SubmitRequest[],
    /** A dishonest server, when set. */
    tamper: undefined as Parameters<typeof prepareTestPayment>[0]['tamper'],
    sponsorship: undefined as { validUntil: number; validAfter: number } | undefined,
    nonce: undefined as bigint | undefined,
  }
  const call = (name: string) => world.calls.push(name)
  const count = (name: string) => world.calls.filter((called) => called === name).length
  /** The registry settles the invoice, paid by `payer`. */
  const payInvoice = (payer: Address) => {
    world.invoice = { ...world.invoice, status: 'Paid', payer, txHash, paidAt: String(world.time / 1000) }
    world.onchain = { ...world.onchain!, status: 2, payer, paidAt: BigInt(world.time / 1000) }
    world.settlement = txHash
  }
  /** The EntryPoint runs the vault's operation: its nonce is spent, and it pays unless told otherwise. */
  const execute = ({ pays = true } = {}) => {
    world.entryPointNonce += 1n
    world.deployed = true
    if (!pays) return
    world.permitNonce += 1n
    payInvoice(vault)
  }

  const dependencies: PaymentFlowDependencies = {
    invoiceId: '3',
    deployment,
    api: {
      async getInvoice() {
        call('getInvoice')
        return world.invoice
      },
      async requestPermit(_, { payerAddress, fundingFrom }) {
        call('requestPermit')
        const deadline = String(world.time / 1000 + 3600)
        const shortfall = BigInt(world.invoice.amount) - world.balance
        const fundingPermitToSign: PermitToSign | undefined =
          fundingFrom && shortfall > 0n
            ? {
                domain: { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
                types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
                primaryType: 'Permit',
                message: world.fundingTamper({ owner: fundingFrom, spender: payerAddress, value: shortfall.toString(), nonce: world.accountNonce.toString(), deadline }),
              }
            : undefined
        return {
          ...(fundingPermitToSign ? { fundingPermitToSign } : {}),
          success: true,
          invoice: world.invoice,
          permitToSign: {
            domain: { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
            types: { Permit: permitTypes.Permit.map((field) => ({ ...field })) },
            primaryType: 'Permit',
            message: {
              owner: payerAddress,
              spender: deployment.registry,
              value: world.invoice.amount,
              nonce: world.permitNonce.toString(),
              deadline: String(world.time / 1000 + 3600),
            },
          },
        }
      },
      async prepare(_, { permit, funding }) {
        call('prepare')
        const prepared = await prepareTestPayment({
          deployment,
          invoice: world.invoice,
          feeBps: world.serverFeeBps ?? world.feeBps,
          vault,
          owner: owner.address,
          vaultDeployed: world.deployed,
          permit: { ...permit, deadline: BigInt(permit.deadline) },
          ...(funding
            ? { funding: { from: funding.from, to: vault, amount: BigInt(funding.amount), permit: { ...funding.permit, deadline: BigInt(funding.permit.deadline) } } }
            : {}),
          paymasterSigner,
          nonce: world.nonce ?? world.entryPointNonce,
          ...(world.sponsorship ? { sponsorship: world.sponsorship } : {}),
          ...(world.tamper ? { tamper: world.tamper } : {}),
        })
        world.prepared.push(prepared)
        return prepared
      },
      async submit(_, request) {
        call('submit')
        world.submitted.push(request)
        execute()
        return { status: 'confirmed', userOpHash: world.prepared.at(-1)!.userOpHash, txHash }
      },
    },
    wallet: {
      async connect() {
        call('connect')
        return owner.address
      },
      async chainId() {
        return world.walletChainId
      },
      async switchChain(chainId) {
        call('switchChain')
        world.walletChainId = chainId
      },
      async signTypedData(typedData) {
        call('signTypedData')
        return owner.signTypedData(typedData)
      },
      async signUserOperation({ payment }) {
        call('signUserOperation')
        // the vault checks the owner's signature of the Payment message, as eth_signTypedData_v4 gives it
        return owner.signTypedData(paymentTypedData(deployment.chainId, payment))
      },
      sendsTransactions: () => world.sendsTransactions,
      async sendToVault({ token, vault: to, amount }) {
        call('sendToVault')
        // the wallet's own transaction: the account's funds move to the vault, on the pinned token
        if (token !== deployment.token || to !== vault) throw new Error('not this payer\'s vault')
        world.accountBalance -= amount
        world.balance += amount
        return txHash
      },
      async invoiceOf(id) {
        call('walletInvoiceOf')
        return id === 3n ? world.walletView(world.onchain) : null
      },
    },
    chain: {
      async invoiceOf(id) {
        call('invoiceOf')
        if (world.rpcDown) throw new TypeError('fetch failed')
        return id === 3n ? world.onchain : null
      },
      async settlementOf() {
        return world.settlement
      },
      async vaultOf() {
        return { vault, deployed: world.deployed }
      },
      async balanceOf(holder) {
        return holder === owner.address ? world.accountBalance : world.balance
      },
      // the payer's account is an EOA
      async codeOf() {
        return '0x'
      },
      async permitNonceOf(holder) {
        return holder === owner.address ? world.accountNonce : world.permitNonce
      },
      async entryPointNonceOf() {
        return world.entryPointNonce
      },
      async feeBpsOf(merchant) {
        call('feeBpsOf')
        if (merchant !== world.onchain?.merchant) throw new Error('not the invoice\'s merchant')
        return world.feeBps
      },
      async blockTime() {
        return Math.floor(world.time / 1000)
      },
      async call() {
        throw new Error('the simulation is the verifier\'s here')
      },
    },
    verifier: {
      verifyPermitToSign,
      verifyFundingPermitToSign,
      verifyPreparedPayment,
      // the chain here is the world above: the simulation of it pays the invoice unless a test says otherwise
      async simulatePayment({ amount }) {
        call('simulatePayment')
        return world.simulation ?? { ok: true, effect: { paid: amount, merchantReceives: amount - amount / 100n, fee: amount / 100n } }
      },
    },
    clock: {
      now: () => world.time,
      async sleep(ms) {
        if (ms > 0 && world.holdWaits) return new Promise(() => {})
        world.time += ms
      },
    },
  }
  const flow = createPaymentFlow(dependencies)
  const seen: PaymentStateName[] = []
  flow.subscribe((state) => seen.push(state.name))
  return { deployment, owner, vault, world, dependencies, flow, seen, count, payInvoice, execute }
}

/** Resolves with the state once the flow reaches one with this name. */
function until<N extends PaymentStateName>(flow: PaymentFlow, name: N): Promise<Extract<PaymentState, { name: N }>> {
  type Reached = Extract<PaymentState, { name: N }>
  return new Promise((resolve, reject) => {
    if (flow.state.name === name) return resolve(flow.state as Reached)
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`the flow stayed in ${flow.state.name} and never reached ${name}`))
    }, 5_000)
    const stop = flow.subscribe((state) => {
      if (state.name !== name) return
      clearTimeout(timer)
      stop()
      resolve(state as Reached)
    })
  })
}

/** Lets every answer already on its way arrive. */
function settle() {
  return new Promise((resolve) => setTimeout(resolve, 20))
}

async function connected(t: ReturnType<typeof setup>) {
  t.flow.start()
  await until(t.flow, 'ready')
  t.flow.connect()
  return until(t.flow, 'connected')
}

/** The chain runs the operation just before the flow's `nth` read of it while pending. */
function executeOnPendingRead(t: ReturnType<typeof setup>, nth: number) {
  const invoiceOf = t.dependencies.chain.invoiceOf
  let reads = 0
  t.dependencies.chain.invoiceOf = async (id) => {
    if (t.flow.state.name === 'pending' && ++reads === nth) t.execute()
    return invoiceOf(id)
  }
}

/** Throws `error` the first time, instead of reaching the fake behind it. */
function failOnce<A extends unknown[], R>(original: (...args: A) => Promise<R>, error: unknown) {
  let failed = false
  return async (...args: A): Promise<R> => {
    if (failed) return original(...args)
    failed = true
    throw error
  }
}

/** The payer takes `ms` to answer the wallet the first time. */
function slowOnce<A extends unknown[], R>(original: (...args: A) => Promise<R>, world: { time: number }, ms: number) {
  let slow = true
  return (...args: A): Promise<R> => {
    if (slow) world.time += ms
    slow = false
    return original(...args)
  }
}

const paying = ['requestingPermit', 'signingPermit', 'preparing', 'verifying', 'signingOperation', 'submitting', 'pending', 'paid']

describe('createPaymentFlow', () => {
  test('default: loads, connects, authorises, verifies, signs and pays, and says paid once the chain does', async () => {
    const t = setup()
    await connected(t)
    t.flow.pay()
    const paid = await until(t.flow, 'paid')

    expect(t.seen).toEqual(['loading', 'ready', 'connecting', 'connected', ...paying])
    const [prepared] = t.world.prepared
    expect(paid.receipt).toEqual({ amount: 248_000_000n, invoiceNumber: '1042', userOpHash: prepared!.userOpHash, txHash, wallet: t.owner.address })
    expect(paid.invoice).toMatchObject({ status: 'Paid', payer: t.vault, confirmed: true })
    // the operation went out as prepared, signed by the owner over the hash the widget computed
    const [submitted] = t.world.submitted
    const userOp = fromWireUserOp(submitted!.userOp)
    expect({ ...submitted!.userOp, signature: '0x' }).toEqual({ ...prepared!.userOp, signature: '0x' })
    const hash = getUserOperationHash({
      chainId: t.deployment.chainId,
      entryPointAddress: t.deployment.entryPoint,
      entryPointVersion: '0.7',
      userOperation: userOp,
    })
    expect(hash).toBe(prepared!.userOpHash)
    // the message signed names the chain's invoice, the vault and that hash: rebuilt here from them alone
    const onchain = t.world.onchain!
    const message = {
      registry: getAddress(t.deployment.registry),
      invoice: 3n,
      invoiceNumber: onchain.invoiceNumber,
      merchant: getAddress(onchain.merchant),
      token: getAddress(onchain.token),
      amount: onchain.amount,
      feeBps: testFeeBps,
      fromWallet: 0n,
      vault: getAddress(t.vault),
      validUntil: BigInt(prepared!.permitDeadline),
      operation: hash,
    }
    expect(await recoverTypedDataAddress({ ...paymentTypedData(t.deployment.chainId, message), signature: userOp.signature })).toBe(t.owner.address)
    expect(t.count('prepare')).toBe(1)
    expect(t.count('submit')).toBe(1)
    // two views of the chain at connect: the pinned RPC's and the wallet's
    expect(t.count('walletInvoiceOf')).toBe(1)
  })

  test('behavior: shows what the permit authorises before the wallet opens, in the pinned token', async () => {
    const t = setup()
    const states: PaymentState[] = []
    t.flow.subscribe((state) => states.push(state))
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'paid')
    const signing = states.find((state) => state.name === 'signingPermit')
    expect(signing?.name === 'signingPermit' && signing.authorisation).toEqual({
      amount: 248_000_000n,
      token: { address: t.deployment.token, symbol: 'USDC', decimals: 6 },
      merchant: t.world.invoice.merchant,
      spender: t.deployment.registry,
      deadline: BigInt(Date.UTC(2026, 0, 15, 13) / 1000),
    })
  })

  test('behavior: pays from a vault that already exists', async () => {
    const t = setup({ deployed: true })
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'paid')
    expect(t.world.submitted[0]?.userOp.factory).toBeUndefined()
  })

  test('behavior: says exactly how much is missing from the vault', async () => {
    const t = setup({ balance: 200_000_000n })
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    const short = await until(t.flow, 'insufficientBalance')
    expect(short.missing).toBe(48_000_000n)
    expect(short.payer).toEqual({ owner: t.owner.address, vault: t.vault, deployed: false, balance: 200_000_000n })
    t.flow.pay()
    await settle()
    expect(t.count('requestPermit')).toBe(0)

    t.world.balance = 248_000_000n
    t.flow.retry()
    await until(t.flow, 'connected')
  })

  test('behavior: asks for the pinned chain, switches, then connects', async () => {
    const t = setup({ walletChainId: 1 })
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    const wrong = await until(t.flow, 'wrongNetwork')
    expect(wrong).toMatchObject({ chainId: 1, wantedChainId: 31337, note: null })
    t.flow.switchNetwork()
    await until(t.flow, 'connected')
    expect(t.seen).toEqual(['loading', 'ready', 'connecting', 'wrongNetwork', 'switchingNetwork', 'connecting', 'connected'])
    expect(t.world.walletChainId).toBe(31337)
  })

  test('behavior: a refused network switch returns to wrongNetwork with a note', async () => {
    const t = setup({ walletChainId: 1 })
    t.dependencies.wallet.switchChain = async () => {
      throw rejection
    }
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    await until(t.flow, 'wrongNetwork')
    t.flow.switchNetwork()
    await until(t.flow, 'switchingNetwork')
    expect(await until(t.flow, 'wrongNetwork')).toMatchObject({ note: 'switchRejected' })
  })

  test('behavior: a refused connection returns to ready with a note', async () => {
    const t = setup()
    t.dependencies.wallet.connect = failOnce(t.dependencies.wallet.connect, rejection)
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    await until(t.flow, 'connecting')
    expect(await until(t.flow, 'ready')).toMatchObject({ note: 'connectRejected' })
  })

  test('behavior: a permit refused in the wallet (4001) returns to connected with a note, and nothing is prepared', async () => {
    const t = setup()
    // wallet libraries wrap the provider's error: the 4001 is found in the cause
    t.dependencies.wallet.signTypedData = failOnce(t.dependencies.wallet.signTypedData, new Error('wrapped', { cause: rejection }))
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'signingPermit')
    const back = await until(t.flow, 'connected')
    expect(back.note).toBe('permitRejected')
    expect(t.count('prepare')).toBe(0)

    t.flow.pay()
    await until(t.flow, 'paid')
    expect(t.count('requestPermit')).toBe(2)
  })

  test('behavior: an operation refused in the wallet returns to connected and is never submitted', async () => {
    const t = setup()
    t.dependencies.wallet.signUserOperation = failOnce(t.dependencies.wallet.signUserOperation, rejection)
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'signingOperation')
    expect(await until(t.flow, 'connected')).toMatchObject({ note: 'operationRejected' })
    expect(t.count('submit')).toBe(0)
  })

  test('behavior: a service\'s PERMIT_EXPIRED at prepare, with the permit an hour from its deadline on the chain\'s clock, asks for a new permit (never "expired", and the claim is not passed on), and a new permit pays', async () => {
    const t = setup()
    t.dependencies.api.prepare = failOnce(t.dependencies.api.prepare, new ApiError({ status: 409, code: 'PERMIT_EXPIRED', message: 'permit expired' }))
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'PERMIT_REFUSED', resume: { name: 'requestingPermit' } })
    t.flow.retry()
    await until(t.flow, 'paid')
    expect(t.seen.slice(t.seen.indexOf('preparing'))).toEqual(['preparing', 'refreshing', 'error', ...paying])
    expect(t.seen).not.toContain('permitExpired')
    expect(t.count('requestPermit')).toBe(2)
    expect(t.count('signTypedData')).toBe(2)
  })

  test('behavior: a service\'s PERMIT_EXPIRED at prepare is "expired" when the chain\'s clock has the signed deadline passed, even with the page\'s clock an hour behind it', async () => {
    const t = setup()
    const blockTime = t.dependencies.chain.blockTime
    t.dependencies.api.prepare = async () => {
      // the chain's clock is past the permit the payer signed; the page's is not
      t.dependencies.chain.blockTime = async () => (await blockTime()) + 3_600
      throw new ApiError({ status: 409, code: 'PERMIT_EXPIRED', message: 'permit expired' })
    }
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'permitExpired')).toMatchObject({ reason: 'expired' })
    expect(t.seen.slice(t.seen.indexOf('preparing'))).toEqual(['preparing', 'refreshing', 'permitExpired'])
  })

  test('behavior: a permit down to its last two minutes before prepare is renewed, not sent', async () => {
    const t = setup()
    // the payer takes 58 minutes and 20 seconds to sign a one-hour permit
    t.dependencies.wallet.signTypedData = slowOnce(t.dependencies.wallet.signTypedData, t.world, 3_500_000)
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'permitExpired')
    expect(t.count('prepare')).toBe(0)
    t.flow.renewPermit()
    await until(t.flow, 'paid')
    expect(t.count('prepare')).toBe(1)
  })

  test('behavior: a permit down to its last two minutes before submit is renewed, not sent', async () => {
    const t = setup()
    t.dependencies.wallet.signUserOperation = slowOnce(t.dependencies.wallet.signUserOperation, t.world, 3_500_000)
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'permitExpired')
    expect(t.seen.slice(-4)).toEqual(['signingOperation', 'submitting', 'refreshing', 'permitExpired'])
    expect(t.count('submit')).toBe(0)
  })

  test('behavior: an invoice already paid opens on the paid page, with the transaction from the chain', async () => {
    const t = setup()
    t.payInvoice(someAddress())
    t.flow.start()
    expect(await until(t.flow, 'paid')).toMatchObject({ receipt: null, invoice: { status: 'Paid', txHash, confirmed: true } })
    expect(t.seen).toEqual(['loading', 'paid'])
  })

  test('behavior: an invoice canceled on-chain opens on the canceled page', async () => {
    const t = setup()
    t.world.onchain = { ...t.world.onchain!, status: 3 }
    t.flow.start()
    await until(t.flow, 'canceled')
  })

  test('behavior: an invoice the service and the chain both do not know is notFound, said after the chain read', async () => {
    const t = setup()
    t.world.onchain = null
    t.dependencies.api.getInvoice = async () => {
      throw new ApiError({ status: 404, code: 'NOT_FOUND', message: 'no such invoice' })
    }
    t.flow.start()
    await until(t.flow, 'notFound')
    expect(t.seen).toEqual(['loading', 'loading', 'notFound'])
    expect(t.count('invoiceOf')).toBe(2)
  })

  test('behavior: a service\'s not-found for an invoice open on chain is not "not found": the chain\'s invoice is shown, with the service\'s failure as the error', async () => {
    const t = setup()
    t.dependencies.api.getInvoice = async () => {
      throw new ApiError({ status: 404, code: 'NOT_FOUND', message: 'no such invoice' })
    }
    t.flow.start()
    const failed = await until(t.flow, 'error')
    expect(failed).toMatchObject({ code: 'NOT_FOUND', status: 404, resume: { name: 'ready', invoice: { id: '3', amount: t.world.onchain!.amount.toString(), confirmed: true, status: 'Issued' } } })
    expect(t.seen).not.toContain('notFound')
  })

  test('behavior: a service\'s not-found with the chain unreadable says nothing of the invoice: the page cannot check it now', async () => {
    const t = setup()
    t.world.rpcDown = true
    t.dependencies.api.getInvoice = async () => {
      throw new ApiError({ status: 404, code: 'NOT_FOUND', message: 'no such invoice' })
    }
    t.flow.start()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'CHAIN_UNREADABLE', resume: { name: 'loading' } })
    expect(t.seen).not.toContain('notFound')
  })

  test('behavior: dispose drops answers still on their way', async () => {
    const t = setup()
    let answer: (invoice: WireInvoice) => void = () => {}
    t.dependencies.api.getInvoice = () => new Promise((resolve) => (answer = resolve))
    t.flow.start()
    t.flow.dispose()
    answer(t.world.invoice)
    await settle()
    expect(t.flow.state.name).toBe('loading')
    expect(t.seen).toEqual(['loading'])
  })
})

describe('createPaymentFlow: the payer sees as fact only what the chain says', () => {
  test.each<[string, Partial<WireInvoice>]>([
    ['amount', { amount: '24800000' }],
    ['merchant', { merchant: someAddress() }],
    ['metaHash', { metaHash: `0x${'ef'.repeat(32)}` }],
    ['dueAt', { dueAt: '1900000000' }],
    ['id', { id: '4' }],
  ])('behavior: a server that misstates the invoice %s is unsafe as soon as the chain is read, and nothing is asked of the wallet', async (field, lie) => {
    const t = setup()
    t.world.invoice = { ...t.world.invoice, ...lie }
    t.flow.start()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems).toEqual([{ code: 'INVOICE_DIFFERS_FROM_CHAIN', message: expect.stringContaining(`in: ${field}.`), fields: [field] }])
    // the chain's figures in place of the service's, the service's document withdrawn
    expect(unsafe.invoice).toMatchObject({ confirmed: true, disproved: true, amount: t.world.onchain!.amount.toString(), dueAt: t.world.onchain!.dueAt.toString() })
    expect(t.seen).toEqual(['loading', 'unsafe'])
    t.flow.connect()
    t.flow.pay()
    await settle()
    expect(t.count('connect')).toBe(0)
    expect(t.count('signTypedData')).toBe(0)
  })

  test('behavior: an invoice the registry does not hold is unsafe', async () => {
    const t = setup()
    t.world.onchain = null
    t.flow.start()
    expect((await until(t.flow, 'unsafe')).problems.map((problem) => problem.code)).toEqual(['INVOICE_NOT_ON_CHAIN'])
  })

  test('behavior: the token decimals and symbol the server states are never used; amounts are in the pinned token', async () => {
    const t = setup()
    t.world.invoice = { ...t.world.invoice, token: { ...t.world.invoice.token, symbol: 'USDT', decimals: 9 } }
    t.flow.start()
    expect((await until(t.flow, 'ready')).invoice).toMatchObject({ token: { address: t.deployment.token, symbol: 'USDC', decimals: 6 }, confirmed: true })
  })

  test('behavior: the server saying Paid or Canceled is not believed while the registry says Issued', async () => {
    const t = setup()
    t.world.invoice = { ...t.world.invoice, status: 'Paid', payer: someAddress(), txHash, paidAt: '1768478400' }
    t.flow.start()
    const ready = await until(t.flow, 'ready')
    expect(ready.invoice).toMatchObject({ status: 'Issued', payer: null, txHash: null, paidAt: null, confirmed: true })
    t.world.invoice = { ...t.world.invoice, status: 'Canceled' }
    t.flow.connect()
    await until(t.flow, 'connected')
    t.flow.pay()
    await until(t.flow, 'paid')
  })

  test('behavior: the registry, not the server, says the invoice is no longer open: paid elsewhere or canceled, nothing is asked for', async () => {
    const paidElsewhere = setup()
    paidElsewhere.flow.start()
    await until(paidElsewhere.flow, 'ready')
    const other = someAddress()
    paidElsewhere.world.onchain = { ...paidElsewhere.world.onchain!, status: 2, payer: other, paidAt: 1768478400n }
    paidElsewhere.flow.connect()
    expect(await until(paidElsewhere.flow, 'paid')).toMatchObject({ receipt: null, invoice: { status: 'Paid', payer: other, paidAt: '1768478400' } })

    const canceled = setup()
    canceled.flow.start()
    await until(canceled.flow, 'ready')
    canceled.world.onchain = { ...canceled.world.onchain!, status: 3 }
    canceled.flow.connect()
    await until(canceled.flow, 'canceled')
    expect([paidElsewhere.count('requestPermit'), canceled.count('requestPermit')]).toEqual([0, 0])
  })

  test('behavior: an unreachable pinned RPC shows the service figures unconfirmed, and confirms them once the chain answers', async () => {
    const t = setup()
    t.dependencies.chain.invoiceOf = failOnce(t.dependencies.chain.invoiceOf, new TypeError('fetch failed'))
    const states: PaymentState[] = []
    t.flow.subscribe((state) => states.push(state))
    t.flow.start()
    await until(t.flow, 'ready')
    await settle()
    expect(t.seen).toEqual(['loading', 'ready', 'ready'])
    expect(states.filter((state) => state.name === 'ready').map((state) => state.name === 'ready' && state.invoice.confirmed)).toEqual([false, true])
    expect(t.flow.state).toMatchObject({ name: 'ready', invoice: { confirmed: true } })
  })

  test('behavior: with the pinned RPC down, the wallet\'s read alone confirms nothing: the payer is told the page cannot check, and nothing is asked for', async () => {
    const t = setup()
    t.world.rpcDown = true
    t.world.holdWaits = true
    t.flow.start()
    expect((await until(t.flow, 'ready')).invoice.confirmed).toBe(false)
    t.flow.connect()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'CHAIN_UNREADABLE', resume: { name: 'connecting', invoice: { confirmed: false } } })
    expect(t.count('walletInvoiceOf')).toBe(1)
    expect(t.count('requestPermit')).toBe(0)
  })

  test('behavior: a wallet node that disagrees with the pinned RPC stops the payment before any permit is asked for', async () => {
    const t = setup()
    t.world.walletView = (onchain) => onchain && { ...onchain, amount: onchain.amount * 10n }
    await t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems).toMatchObject([{ code: 'INVOICE_DIFFERS_FROM_CHAIN', fields: ['amount'] }])
    expect(t.count('requestPermit')).toBe(0)
  })

  test('behavior: neither the pinned RPC nor the wallet answering at connect is an error, never a go-ahead', async () => {
    const t = setup()
    t.world.holdWaits = true
    t.flow.start()
    await until(t.flow, 'ready')
    t.world.rpcDown = true
    t.dependencies.wallet.invoiceOf = async () => {
      throw new TypeError('wallet offline')
    }
    t.flow.connect()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'CHAIN_UNREADABLE' })
    expect(t.count('requestPermit')).toBe(0)
  })
})

describe('createPaymentFlow: nothing is signed that the verifiers refuse', () => {
  test('behavior: an operation that would run without paying, as the pinned RPC simulates it, is refused before the wallet is asked; the permit handed over is named', async () => {
    const t = setup()
    t.world.simulation = { ok: false, problems: [{ code: 'SIMULATION_NOT_PAID', message: 'runs without paying' }] }
    await connected(t)
    t.flow.pay()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual(['SIMULATION_NOT_PAID'])
    expect(unsafe.handedOver).not.toBeNull()
    expect(t.count('simulatePayment')).toBe(1)
    expect(t.count('signUserOperation')).toBe(0)
  })

  test('behavior: the simulated effect is what the signing step shows', async () => {
    const t = setup()
    await connected(t)
    t.flow.pay()
    const signing = await until(t.flow, 'signingOperation')
    expect(signing.simulated).toEqual({ paid: 248_000_000n, merchantReceives: 245_520_000n, fee: 2_480_000n })
  })

  test.each<[string, number, 'canceled' | 'paid']>([
    ['canceled', 3, 'canceled'],
    ['paid by someone else', 2, 'paid'],
  ])('behavior: an invoice %s between prepare and signing is what the payer is told, as the chain shows it, not a service that answered wrongly', async (_, status, shown) => {
    const t = setup()
    const prepare = t.dependencies.api.prepare
    t.dependencies.api.prepare = async (id, request) => {
      const prepared = await prepare(id, request)
      // the merchant cancels (or another payer pays) just after the service prepared the payment
      t.world.onchain = { ...t.world.onchain!, status, ...(status === 2 ? { payer: someAddress() } : {}) }
      return prepared
    }
    // run on the chain as it now is, the operation reverts
    t.world.simulation = { ok: false, problems: [{ code: 'SIMULATION_REVERTED', message: 'reverts' }] }
    await connected(t)
    t.flow.pay()
    await until(t.flow, shown)
    expect(t.seen.slice(t.seen.indexOf('verifying'))).toEqual(['verifying', 'refreshing', shown])
    expect(t.seen).not.toContain('unsafe')
    expect(t.count('signUserOperation')).toBe(0)
  })

  test('behavior: an answer that fails verification after the chain\'s clock passed the signed permit is "expired", not unsafe', async () => {
    const t = setup()
    t.world.simulation = { ok: false, problems: [{ code: 'SIMULATION_REVERTED', message: 'reverts' }] }
    const blockTime = t.dependencies.chain.blockTime
    t.dependencies.chain.blockTime = async () => (await blockTime()) + 3_600
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'permitExpired')).toMatchObject({ reason: 'expired' })
    expect(t.count('signUserOperation')).toBe(0)
  })

  test('behavior: an unsafe prepared operation is refused and never signed; the permit handed over is named', async () => {
    const t = setup()
    t.world.tamper = (userOp) => ({ ...userOp, paymaster: someAddress() })
    await connected(t)
    t.flow.pay()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual(['PAYMASTER_MISMATCH'])
    expect(unsafe.handedOver).toEqual({ amount: 248_000_000n, deadline: BigInt(Date.UTC(2026, 0, 15, 13) / 1000) })
    t.flow.retry()
    t.flow.pay()
    await settle()
    expect(t.flow.state.name).toBe('unsafe')
    expect(t.count('signUserOperation')).toBe(0)
    expect(t.count('submit')).toBe(0)
  })

  test.each<[string, string, (world: ReturnType<typeof setup>['world']) => void]>([
    ['whose sponsorship never expires, so it could be held and run at any time', 'SPONSORSHIP_UNBOUNDED', (world) => (world.sponsorship = { validUntil: 0, validAfter: 0 })],
    ['on another nonce key, able to run beside other operations', 'NONCE_KEY_NONZERO', (world) => (world.nonce = 7n << 64n)],
  ])('behavior: an operation %s is refused and never signed', async (_, code, lie) => {
    const t = setup()
    lie(t.world)
    await connected(t)
    t.flow.pay()
    expect((await until(t.flow, 'unsafe')).problems.map((problem) => problem.code)).toEqual([code])
    expect(t.count('signUserOperation')).toBe(0)
  })

  test('behavior: an operation prepared at another fee rate than the registry charges now is refused and never signed', async () => {
    const t = setup()
    // the server read the merchant's fee before the registry changed it
    t.world.serverFeeBps = 250
    await connected(t)
    t.flow.pay()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual(['FEE_MISMATCH'])
    expect(t.count('signUserOperation')).toBe(0)
    expect(t.count('submit')).toBe(0)
  })

  test('behavior: the fee rate is read from the chain when the operation is verified, and the payer signs that rate', async () => {
    const t = setup()
    await connected(t)
    expect(t.count('feeBpsOf')).toBe(0)
    // the registry changes the merchant's fee after connect: the server and the chain agree on the new rate
    t.world.feeBps = 250
    t.flow.pay()
    await until(t.flow, 'paid')
    expect(t.count('feeBpsOf')).toBe(1)
    const call = decodePayCallData(fromWireUserOp(t.world.submitted[0]!.userOp).callData)
    expect(call).toMatchObject({ feeBps: 250, invoiceNumber: 1042n })
  })

  test('behavior: an unsafe permit is refused and never signed', async () => {
    const t = setup()
    const requestPermit = t.dependencies.api.requestPermit
    t.dependencies.api.requestPermit = async (id, request) => {
      const response = await requestPermit(id, request)
      return { ...response, permitToSign: { ...response.permitToSign, message: { ...response.permitToSign.message, value: '1000000000000' } } }
    }
    await connected(t)
    t.flow.pay()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual(['AMOUNT_MISMATCH'])
    expect(unsafe.handedOver).toBeNull()
    expect(t.count('signTypedData')).toBe(0)
  })
})

describe('createPaymentFlow: after the operation is handed over, only the chain settles it', () => {
  test('behavior: a submit answer of "confirmed" with an invented transaction is not a payment', async () => {
    const t = setup()
    t.dependencies.api.submit = async (_, request) => {
      t.world.submitted.push(request)
      return { status: 'confirmed', userOpHash: t.world.prepared.at(-1)!.userOpHash, txHash: `0x${'99'.repeat(32)}` }
    }
    await connected(t)
    t.flow.pay()
    // the chain never ran it: the operation is followed until its window closes, and was not sent
    expect(await until(t.flow, 'permitExpired')).toMatchObject({ reason: 'notSent' })
    expect(t.seen).not.toContain('paid')
    expect(Math.floor(t.world.time / 1000)).toBeGreaterThan(Number(t.world.prepared[0]!.permitDeadline))
  })

  test('behavior: a pending submission is followed on-chain until the registry says Paid', async () => {
    const t = setup()
    t.dependencies.api.submit = async (_, request) => {
      t.world.submitted.push(request)
      return { status: 'pending', userOpHash: t.world.prepared.at(-1)!.userOpHash, message: 'submitted' }
    }
    await connected(t)
    executeOnPendingRead(t, 3)
    const submittedAt = t.world.time
    t.flow.pay()
    const paid = await until(t.flow, 'paid')
    expect(t.seen.slice(t.seen.indexOf('submitting'))).toEqual(['submitting', 'pending', 'pending', 'pending', 'paid'])
    expect(t.world.time - submittedAt).toBe(2 * pendingPollMs)
    expect(paid.receipt).toEqual({ amount: 248_000_000n, invoiceNumber: '1042', userOpHash: t.world.prepared[0]!.userOpHash, txHash, wallet: t.owner.address })
    expect(t.count('prepare')).toBe(1)
  })

  test('behavior: an operation that ran without paying is "nothing was paid", read from the vault nonce', async () => {
    const t = setup()
    t.dependencies.api.submit = async (_, request) => {
      t.world.submitted.push(request)
      t.execute({ pays: false })
      return { status: 'confirmed', userOpHash: t.world.prepared.at(-1)!.userOpHash, txHash }
    }
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'permitExpired')).toMatchObject({ reason: 'failed' })
    expect(t.seen).not.toContain('paid')
    t.dependencies.api.submit = async (_, request) => {
      t.world.submitted.push(request)
      t.execute()
      return { status: 'confirmed', userOpHash: t.world.prepared.at(-1)!.userOpHash, txHash }
    }
    t.flow.renewPermit()
    await until(t.flow, 'paid')
    // the next operation is the vault's next nonce, from an existing vault
    const next = fromWireUserOp(t.world.prepared[1]!.userOp)
    expect([next.nonce, next.factory]).toEqual([1n, undefined])
  })

  test('behavior: a network error after submission follows the chain, and prepares nothing new', async () => {
    const t = setup()
    const submit = t.dependencies.api.submit
    // the server received the operation and it was mined; only the answer was lost
    t.dependencies.api.submit = async (id, request) => {
      await submit(id, request)
      throw new TypeError('fetch failed')
    }
    await connected(t)
    t.flow.pay()
    const paid = await until(t.flow, 'paid')
    expect(t.seen.slice(t.seen.indexOf('submitting'))).toEqual(['submitting', 'pending', 'paid'])
    expect(paid.receipt?.userOpHash).toBe(t.world.prepared[0]!.userOpHash)
    expect(t.count('prepare')).toBe(1)
    expect(t.count('submit')).toBe(1)
  })

  test('behavior: a submission lost before the server keeps waiting, and "send again" sends the same operation', async () => {
    const t = setup()
    t.world.holdWaits = true
    t.dependencies.api.submit = failOnce(t.dependencies.api.submit, new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'offline' }))
    await connected(t)
    t.flow.pay()
    const pending = await until(t.flow, 'pending')
    expect(pending.submission).toEqual({ kind: 'unknown' })
    await settle()
    t.flow.retry()
    const paid = await until(t.flow, 'paid')
    expect(paid.receipt?.userOpHash).toBe(pending.userOpHash)
    expect(t.count('prepare')).toBe(1)
    expect(t.world.submitted).toHaveLength(1)
  })

  test('behavior: a 503 at submit is followed on-chain, never answered with a new operation', async () => {
    const t = setup()
    t.world.holdWaits = true
    t.dependencies.api.submit = failOnce(t.dependencies.api.submit, new ApiError({ status: 503, code: 'BUNDLER_UNAVAILABLE', message: 'try later' }))
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'pending')).toMatchObject({ submission: { kind: 'unknown' } })
    await settle()
    expect(t.count('prepare')).toBe(1)
  })

  test('behavior: a refused submission that still runs on-chain is paid, never "nothing was paid"', async () => {
    const t = setup()
    t.dependencies.api.submit = async (_, request) => {
      t.world.submitted.push(request)
      throw new ApiError({ status: 400, code: 'TRANSACTION_FAILED', message: 'no' })
    }
    await connected(t)
    // whoever holds the signed operation sends it a little later
    executeOnPendingRead(t, 2)
    t.flow.pay()
    const refused = await until(t.flow, 'pending')
    expect(refused.submission).toEqual({ kind: 'refused', code: 'TRANSACTION_FAILED' })
    expect((await until(t.flow, 'paid')).receipt?.userOpHash).toBe(refused.userOpHash)
    expect(t.seen).not.toContain('permitExpired')
  })

  test('behavior: USEROP_PERMIT_MISMATCH at submit lets the payer sign a new payment on the same nonce, so at most one runs', async () => {
    const t = setup()
    t.world.holdWaits = true
    t.dependencies.api.submit = failOnce(t.dependencies.api.submit, new ApiError({ status: 400, code: 'USEROP_PERMIT_MISMATCH', message: 'mismatch' }))
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'pending')).toMatchObject({ submission: { kind: 'refused', code: 'USEROP_PERMIT_MISMATCH' } })
    await settle()
    t.flow.renewPermit()
    await until(t.flow, 'paid')
    expect(t.count('prepare')).toBe(2)
    expect(t.world.prepared[1]!.userOp.nonce).toBe(t.world.prepared[0]!.userOp.nonce)
  })

  test('behavior: a payment pending while someone else pays ends on the paid page without a receipt', async () => {
    const t = setup()
    t.dependencies.api.submit = async () => {
      t.payInvoice(someAddress())
      return { status: 'pending', userOpHash: t.world.prepared.at(-1)!.userOpHash, message: 'submitted' }
    }
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'paid')).toMatchObject({ receipt: null })
  })
})

describe('createPaymentFlow: failures the payer recovers from', () => {
  test('behavior: a 429 at prepare holds retry until Retry-After has passed', async () => {
    const t = setup()
    t.dependencies.api.prepare = failOnce(t.dependencies.api.prepare, new ApiError({ status: 429, code: 'RATE_LIMITED', message: 'slow down', retryAfter: 30 }))
    await connected(t)
    t.flow.pay()
    const limited = await until(t.flow, 'error')
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAt: t.world.time + 30_000 })
    expect(limited.resume.name).toBe('preparing')

    t.world.time += 29_999
    t.flow.retry()
    await settle()
    expect(t.flow.state).toBe(limited)

    t.world.time += 1
    t.flow.retry()
    await until(t.flow, 'paid')
    // the permit signed before the 429 was sent again
    expect(t.count('requestPermit')).toBe(1)
    expect(t.count('signTypedData')).toBe(1)
  })

  test('behavior: a 503 while loading can be retried', async () => {
    const t = setup()
    t.dependencies.api.getInvoice = failOnce(t.dependencies.api.getInvoice, new ApiError({ status: 503, code: 'UNAVAILABLE', message: 'down' }))
    t.flow.start()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'UNAVAILABLE', status: 503, retryAt: null })
    t.flow.retry()
    await until(t.flow, 'ready')
  })

  test('behavior: a 503 at prepare can be retried with the same permit', async () => {
    const t = setup()
    t.dependencies.api.prepare = failOnce(t.dependencies.api.prepare, new ApiError({ status: 503, code: 'PAYMASTER_UNAVAILABLE', message: 'down' }))
    await connected(t)
    t.flow.pay()
    await until(t.flow, 'error')
    t.flow.retry()
    await until(t.flow, 'paid')
    expect(t.count('requestPermit')).toBe(1)
  })

  test('behavior: an API that does not answer before submission can be retried', async () => {
    const t = setup()
    t.dependencies.api.requestPermit = failOnce(t.dependencies.api.requestPermit, new TypeError('fetch failed'))
    await connected(t)
    t.flow.pay()
    expect(await until(t.flow, 'error')).toMatchObject({ code: 'NETWORK_ERROR', status: null })
    t.flow.retry()
    await until(t.flow, 'paid')
  })

  test.each(['PERMIT_SIGNATURE_INVALID', 'USEROP_PERMIT_MISMATCH'])('behavior: %s at prepare starts again from a new permit', async (code) => {
    const t = setup()
    t.dependencies.api.prepare = failOnce(t.dependencies.api.prepare, new ApiError({ status: 400, code, message: 'bad permit' }))
    await connected(t)
    t.flow.pay()
    const failed = await until(t.flow, 'error')
    expect(failed).toMatchObject({ code, status: 400 })
    expect(failed.resume.name).toBe('requestingPermit')
    t.flow.retry()
    await until(t.flow, 'paid')
    expect(t.count('requestPermit')).toBe(2)
  })

  test('behavior: an invoice paid by someone else during the flow ends on the paid page', async () => {
    const t = setup()
    await connected(t)
    const other = someAddress()
    t.dependencies.api.prepare = async () => {
      t.payInvoice(other)
      throw new ApiError({ status: 400, code: 'INVALID_STATUS', message: 'invoice is not Issued' })
    }
    t.flow.pay()
    const paid = await until(t.flow, 'paid')
    expect(t.seen.slice(t.seen.indexOf('preparing'))).toEqual(['preparing', 'refreshing', 'paid'])
    expect(paid).toMatchObject({ receipt: null, invoice: { payer: other } })
    expect(t.count('signUserOperation')).toBe(0)
  })

  test('behavior: a refusal while the invoice is still Issued is an error to retry', async () => {
    const t = setup()
    t.dependencies.api.prepare = failOnce(t.dependencies.api.prepare, new ApiError({ status: 409, code: 'REQUEST_IN_PROGRESS', message: 'busy' }))
    await connected(t)
    t.flow.pay()
    const failed = await until(t.flow, 'error')
    expect(failed).toMatchObject({ code: 'REQUEST_IN_PROGRESS', status: 409 })
    expect(failed.resume.name).toBe('preparing')
    t.flow.retry()
    await until(t.flow, 'paid')
  })
})

describe('createPaymentFlow: a smart account is never sent to a vault', () => {
  test('behavior: a smart account (code at its address) short of funds is told to top up itself, never its vault, and sees what its vault already holds', async () => {
    // the vault derived from the account holds 200 USDC it was sent before; the account holds 48
    const t = setup({ balance: 200_000_000n, accountBalance: 48_000_000n })
    t.dependencies.chain.codeOf = async () => '0x363d3d373d3d3d363d73bebebebebebebebebebebebebebebebebebebebe5af43d82803e903d91602b57fd5bf3'
    t.dependencies.wallet.capabilities = async () => ({ atomic: 'supported', paymasterService: true })
    t.dependencies.wallet.sendCalls = async () => '0x1'
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    const state = await until(t.flow, 'smartWallet')
    expect(state.payer).toEqual({ owner: t.owner.address, balance: 48_000_000n, stranded: { vault: t.vault, deployed: false, balance: 200_000_000n }, movesBack: true })
    expect(t.seen).not.toContain('insufficientBalance')
    // nothing is offered that the account cannot do: no Pay for what it does not hold, no permit for the vault
    t.flow.pay()
    t.flow.payFromWallet()
    await settle()
    expect(t.flow.state.name).toBe('smartWallet')
    expect(t.count('requestPermit')).toBe(0)
  })
})

describe('paying from the wallet the payer already has', () => {
  /** A vault holding 47 of the 248 USDC, and 500 in the payer's own account. */
  async function short(t: ReturnType<typeof setup>) {
    t.flow.start()
    await until(t.flow, 'ready')
    t.flow.connect()
    return until(t.flow, 'insufficientBalance')
  }

  test('behavior: a vault short of funds with the rest in the wallet pays from the wallet: the funding permit first, then the vault\'s, then the operation', async () => {
    const t = setup({ balance: 47_000_000n, accountBalance: 500_000_000n })
    const offer = await short(t)
    expect(offer).toMatchObject({ missing: 201_000_000n, fromWallet: true })
    const states: PaymentState[] = []
    t.flow.subscribe((state) => states.push(state))
    t.flow.payFromWallet()
    await until(t.flow, 'paid')
    expect(states.map((state) => state.name)).toEqual(['requestingPermit', 'signingFunding', 'signingPermit', 'preparing', 'verifying', 'signingOperation', 'submitting', 'pending', 'paid'])
    const funding = states.find((state) => state.name === 'signingFunding')
    expect(funding?.name === 'signingFunding' && funding.authorisation).toMatchObject({ amount: 201_000_000n, spender: t.vault })
    expect(t.count('signTypedData')).toBe(2)
    const call = decodeFundedPayCallData(t.world.submitted[0]!.userOp.callData)
    // the vault takes only from its owner, into itself: the call names the amount alone
    expect(call).toMatchObject({ invoiceId: 3n, amount: 248_000_000n, funding: { amount: 201_000_000n } })
    // and the wallet was asked to sign exactly that: the chain's invoice, and what comes from the wallet
    const signing = states.find((state) => state.name === 'signingOperation')
    expect(signing?.name === 'signingOperation' && signing.payment).toMatchObject({
      invoice: 3n,
      merchant: getAddress(t.world.onchain!.merchant),
      amount: 248_000_000n,
      fromWallet: 201_000_000n,
      operation: t.world.prepared[0]!.userOpHash,
    })
  })

  test('behavior: a vault funded after the offer goes back to the plain payment: no funding asked, nothing called unsafe', async () => {
    const t = setup({ balance: 47_000_000n, accountBalance: 500_000_000n })
    await short(t)
    // the payer topped the vault up from elsewhere in the meantime
    t.world.balance = 248_000_000n
    t.flow.payFromWallet()
    // back where a funded vault starts: the chain read again, the plain payment offered
    await until(t.flow, 'connected')
    t.flow.pay()
    await until(t.flow, 'paid')
    expect(t.count('signTypedData')).toBe(1)
    expect(() => decodeFundedPayCallData(t.world.submitted[0]!.userOp.callData)).toThrow()
  })

  test('behavior: a wallet that sends no transactions from here (a host page\'s) is offered the permit only: the plain transfer cannot start', async () => {
    const t = setup({ balance: 0n, accountBalance: 500_000_000n, sendsTransactions: false })
    const offer = await short(t)
    expect(offer).toMatchObject({ fromWallet: true, payer: { sendsTransactions: false } })
    t.flow.sendToVault()
    await settle()
    expect(t.flow.state.name).toBe('insufficientBalance')
    expect(t.count('sendToVault')).toBe(0)
  })

  test('behavior: a wallet holding less than the vault lacks is not offered, and the payer cannot start it', async () => {
    const t = setup({ balance: 47_000_000n, accountBalance: 200_000_000n })
    const offer = await short(t)
    expect(offer.fromWallet).toBeUndefined()
    t.flow.payFromWallet()
    await settle()
    expect(t.count('requestPermit')).toBe(0)
  })

  test('behavior: declining the funding signature is declined, not an error: back to the offer, with a note, nothing prepared', async () => {
    const t = setup({ balance: 0n, accountBalance: 500_000_000n })
    await short(t)
    t.dependencies.wallet.signTypedData = async () => {
      throw rejection
    }
    t.flow.payFromWallet()
    await settle()
    expect(t.flow.state).toMatchObject({ name: 'insufficientBalance', fromWallet: true, note: 'permitRejected', missing: 248_000_000n })
    expect(t.count('prepare')).toBe(0)
  })

  test('behavior: the plain alternative: the wallet sends what the vault lacks to the vault, then the payment goes on as today', async () => {
    const t = setup({ balance: 47_000_000n, accountBalance: 500_000_000n })
    await short(t)
    t.flow.sendToVault()
    await until(t.flow, 'connected')
    expect(t.count('sendToVault')).toBe(1)
    expect(t.world.balance).toBe(248_000_000n)
    t.flow.pay()
    await until(t.flow, 'paid')
    // one permit, the vault's: the funds were already there
    expect(t.count('signTypedData')).toBe(1)
    expect(decodePayCallData(t.world.submitted[0]!.userOp.callData).invoiceId).toBe(3n)
  })

  test('behavior: a declined transfer is declined, not an error: back to the offer, nothing sent', async () => {
    const t = setup({ balance: 0n, accountBalance: 500_000_000n })
    await short(t)
    t.dependencies.wallet.sendToVault = async () => {
      throw rejection
    }
    t.flow.sendToVault()
    await settle()
    expect(t.flow.state).toMatchObject({ name: 'insufficientBalance', fromWallet: true, note: 'transferRejected' })
    expect(t.world.balance).toBe(0n)
  })

  test.each([
    ['spender', (message: PermitToSign['message']) => ({ ...message, spender: someAddress() }), 'FUNDING_SPENDER_MISMATCH'],
    ['value', (message: PermitToSign['message']) => ({ ...message, value: '248000000' }), 'FUNDING_AMOUNT_MISMATCH'],
    ['owner', (message: PermitToSign['message']) => ({ ...message, owner: someAddress() }), 'FUNDING_OWNER_MISMATCH'],
  ] as const)('behavior: a funding permit with another %s is unsafe before any signature', async (_, tamper, code) => {
    const t = setup({ balance: 47_000_000n, accountBalance: 500_000_000n })
    t.world.fundingTamper = tamper
    await short(t)
    t.flow.payFromWallet()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual([code])
    expect(t.count('signTypedData')).toBe(0)
  })

  test('behavior: a funded call with another call appended is unsafe before the operation is signed', async () => {
    const t = setup({ balance: 47_000_000n, accountBalance: 500_000_000n })
    t.world.tamper = (userOp) => ({ ...userOp, callData: concat([userOp.callData, userOp.callData]) })
    await short(t)
    t.flow.payFromWallet()
    const unsafe = await until(t.flow, 'unsafe')
    expect(unsafe.problems.map((problem) => problem.code)).toEqual(['CALLDATA_NOT_CANONICAL'])
    expect(t.count('signUserOperation')).toBe(0)
    // both permits went to the service with /prepare: the payer is told what each allows
    expect(unsafe.handedOver).toMatchObject({ amount: 248_000_000n, funding: { amount: 201_000_000n } })
  })
})
