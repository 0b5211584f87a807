import { formatUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { createPayApi } from '../../src/api/createPayApi'
import { ApiError } from '../../src/api/apiError'
import { createPaymentFlow } from '../../src/flow/createPaymentFlow'
import type { PaymentState } from '../../src/flow/paymentState'
import { hashMetadata } from '../../shared/metadataHash'
import { verifyPermitToSign } from '../../src/verify/verifyPermitToSign'
import { verifyFundingPermitToSign } from '../../src/verify/verifyFundingPermitToSign'
import { verifyPreparedPayment } from '../../src/verify/verifyPreparedPayment'
import { simulatePayment } from '../../src/chain/simulatePayment'
import { createWalletSession } from '../../src/wallet/createWalletSession'
import { devnetWalletProvider } from '../../src/wallet/devnetWallet'
import { useServer } from '../support/server'

// a modest limit so that the last test can meet it; the tests before it stay well below
const ctx = useServer({ overrides: { RATE_LIMIT_PER_MINUTE: '60' } })
const payApi = () => createPayApi({ baseUrl: ctx.server.url })

function tokenOf(shareLink: string) {
  return new URL(shareLink).searchParams.get('token')!
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('createPayApi', () => {
  test('default: reads an invoice, checked against the wire schema', async () => {
    const demo = ctx.devnet.seed.invoices[0]!
    const invoice = await payApi().getInvoice(demo.id.toString())
    expect(invoice).toMatchObject({ id: demo.id.toString(), amount: demo.amount.toString(), status: 'Issued', metaHash: hashMetadata(demo.metadata) })
  })

  test('behavior: the share link token opens the decrypted metadata; no token, only the on-chain record', async () => {
    const link = ctx.shareLinks[0]!
    const id = link.invoiceId.toString()
    const full = await payApi().getDocument(id, tokenOf(link.shareLink))
    expect(full.accessLevel).toBe('full')
    expect(full.metadata).toEqual(ctx.devnet.seed.invoices[0]!.metadata)
    expect(await payApi().getDocument(id, null)).toMatchObject({ accessLevel: 'onchain_only', metadata: null })
    expect(await payApi().getDocument(id, 'svc_tk_not-a-real-token')).toMatchObject({ accessLevel: 'onchain_only', metadata: null })
  })

  test('behavior: the PDF link is the documented route and downloads with the token', async () => {
    const link = ctx.shareLinks[0]!
    const url = payApi().pdfUrl(link.invoiceId.toString(), tokenOf(link.shareLink))
    expect(url).toBe(`${ctx.server.url}/v1/pay/${link.invoiceId}/pdf?token=${encodeURIComponent(tokenOf(link.shareLink))}`)
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
  })

  test('behavior: error bodies become ApiError with status and code', async () => {
    expect(await apiError(payApi().getInvoice('424242'))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    const { payer } = ctx.devnet.seed
    const forged = { deadline: String(Math.floor(Date.now() / 1000) + 3600), v: 27, r: `0x${'11'.repeat(32)}` as const, s: `0x${'22'.repeat(32)}` as const }
    const invalid = await apiError(payApi().prepare('1', { payerAddress: payer.vault, ownerAddress: payer.owner, permit: forged }))
    expect(invalid).toMatchObject({ status: 400, code: 'PERMIT_SIGNATURE_INVALID' })
    expect('retryAfter' in invalid).toBe(false)
    // a validation error's body has `error` and no `code`: the code is taken from `error`
    expect(await apiError(payApi().getInvoice('0x10'))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
  })

  test('behavior: no answer at all is status 0, NETWORK_ERROR', async () => {
    const offline = createPayApi({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 })
    expect(await apiError(offline.getInvoice('1'))).toMatchObject({ status: 0, code: 'NETWORK_ERROR' })
  })

  test('behavior: an answer that is not the documented shape is refused, not trusted', async () => {
    // a dishonest or broken server: the real answer with one field changed on its way
    const tampering: typeof fetch = async (input, init) => {
      const real = await fetch(input, init)
      const body = (await real.json()) as { data: Record<string, unknown> }
      return Response.json({ ...body, data: { ...body.data, amount: 'lots' } }, { status: real.status })
    }
    const api = createPayApi({ baseUrl: ctx.server.url, fetch: tampering })
    expect(await apiError(api.getInvoice('1'))).toMatchObject({ status: 0, code: 'INVALID_RESPONSE' })
  })

  test('behavior: the payment flow pays a real invoice through the API client and the devnet wallet', async () => {
    const { devnet } = ctx
    const demo = devnet.seed.invoices[1]!
    const wallet = devnetWalletProvider({ privateKey: devnet.seed.payer.ownerPrivateKey, rpcUrl: devnet.anvil.rpcUrl }, fetch)
    const session = createWalletSession(devnet.pinned)
    session.choose({ id: 'devnet', kind: 'devnet', name: '', icon: '', open: async () => wallet })
    const flow = createPaymentFlow({
      invoiceId: demo.id.toString(),
      deployment: devnet.pinned,
      api: payApi(),
      wallet: session.wallet,
      chain: session.chain,
      verifier: { verifyPermitToSign, verifyFundingPermitToSign, verifyPreparedPayment, simulatePayment },
      clock: { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
    })
    const seen: PaymentState[] = []
    const settled = new Promise<PaymentState>((resolve) =>
      flow.subscribe((state) => {
        seen.push(state)
        // connect as soon as the invoice is shown: a fixed delay can end before it has loaded
        if (state.name === 'ready') flow.connect()
        if (state.name === 'connected') flow.pay()
        if (['paid', 'unsafe', 'error', 'insufficientBalance', 'wrongNetwork'].includes(state.name)) resolve(state)
      }),
    )
    const balance = () => devnet.clients.public.readContract({ address: devnet.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [devnet.seed.payer.vault] })
    const before = await balance()
    flow.start()
    const end = await settled
    flow.dispose()
    expect(end.name).toBe('paid')
    // the operation was run through the pinned RPC before it was signed, and moved exactly the invoice
    const signing = seen.find((state) => state.name === 'signingOperation')
    const simulated = signing && 'simulated' in signing ? signing.simulated : undefined
    expect(simulated?.paid).toBe(demo.amount)
    expect(simulated!.merchantReceives + simulated!.fee).toBe(demo.amount)
    expect(simulated!.merchantReceives).toBeGreaterThan(0n)
    const connected = seen.find((state) => state.name === 'connected')
    // the wallet layer read the vault from the pinned factory, undeployed, with its balance; the
    // devnet wallet signs but sends no transactions of its own, so only permits can fund the vault
    expect(connected?.name === 'connected' && connected.payer).toEqual({
      owner: devnet.seed.payer.owner,
      vault: devnet.seed.payer.vault,
      deployed: false,
      balance: before,
      sendsTransactions: false,
    })
    expect(end.name === 'paid' && end.receipt?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(formatUnits(before - (await balance()), 6)).toBe(formatUnits(demo.amount, 6))
    expect((await payApi().getInvoice(demo.id.toString())).status).toBe('Paid')
  })

  test('behavior: the server started without the devnet option has no devnet wallet route', async () => {
    expect((await fetch(`${ctx.server.url}/devnet/wallet`)).status).toBe(404)
  })

  // last: it spends what is left of this client's per-minute allowance
  test('behavior: a 429 carries Retry-After in seconds', async () => {
    const api = payApi()
    let limited: ApiError | null = null
    for (let i = 0; i < 80 && !limited; i++) {
      limited = await api.getInvoice('1').then(
        () => null,
        (error: unknown) => (error instanceof ApiError && error.status === 429 ? error : Promise.reject(error)),
      )
    }
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
    expect(limited!.retryAfter).toBeGreaterThanOrEqual(1)
    expect(limited!.retryAfter).toBeLessThanOrEqual(60)
  })
})
