import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEventLogs, parseUnits } from 'viem'
import { expect, test } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { devnetClients } from '../../devnet/deploy'
import { createPayer } from '../../devnet/seed'
import { signedRequest } from '../support/signedRequest'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { clickPay } from './support/clickPay'
import { injectTestWallet } from './support/testWallet'

/**
 * The merchant's loop on what `npm start` runs, as a merchant's backend drives it with the project's
 * HMAC client and devnet.json's key: a customer, an invoice issued to them by the server signer with
 * its mail, the customer paying it in chromium from the link in that mail, the merchant reading it
 * Paid; then a second invoice canceled, and its link saying so from the chain.
 */

const checkout = useCheckoutInBrowser()

test('behavior: a merchant backend creates a customer and issues to them; the mail carries the link, the customer pays it in chromium, the merchant reads it Paid and among its payments, net plus fee the amount; a second invoice is canceled and its link says so', async () => {
  const { serverUrl, merchant, mailbox, rpcUrl, chainId, contracts } = checkout.devnet.file
  const call = (method: 'GET' | 'POST', path: string, { body, query, idempotencyKey }: { body?: unknown; query?: string; idempotencyKey?: string } = {}) =>
    signedRequest(serverUrl, merchant.apiKey, {
      method,
      path,
      ...(query ? { query } : {}),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(idempotencyKey ? { send: { headers: { 'idempotency-key': idempotencyKey } } } : {}),
    })
  const issue = (customerId: string, amount: string, sendEmail: boolean) =>
    call('POST', '/v1/invoices/issue', { body: { customerId, amount, dueDays: 14, description: 'Loop test: onboarding workshop', sendEmail }, idempotencyKey: randomUUID() })

  const id = randomUUID().slice(0, 8)
  const name = `Loop Trading ${id} GmbH`
  const email = `ap-${id}@loop-trading.example`
  const created = await call('POST', '/v1/customers', {
    body: { type: 'entity', legalName: name, email, address: { street: 'Hafenstraße 1', city: 'Hamburg', postal: '20457', country: 'DE' }, registrationNumber: `HRB ${id}` },
  })
  expect(created.status).toBe(201)
  const customerId = created.body.data.id as string

  const issued = await issue(customerId, '12340000', true)
  expect(issued.status).toBe(200)
  expect(issued.body).toMatchObject({ status: 'Issued', amount: '12340000', delivery: { status: 'sent', to: email } })
  const { id: invoiceId, shareLink } = issued.body as { id: string; shareLink: string }

  // the customer's mail, as the devnet's SMTP server kept it, carries the link that opens the invoice
  const mailWith = (text: string) => readdirSync(mailbox!).filter((file) => file.endsWith('.eml')).find((file) => readFileSync(join(mailbox!, file), 'utf8').includes(text))
  await expect.poll(() => mailWith(`ap-${id}@loop-trading.example`)).toBeDefined()
  expect(readFileSync(join(mailbox!, mailWith(email)!), 'utf8').replace(/=\r?\n/g, '')).toContain(new URL(shareLink).searchParams.get('token')!)
  const opened = await (await fetch(`${serverUrl}/v1/pay/${invoiceId}/metadata?token=${new URL(shareLink).searchParams.get('token')}`)).json()
  expect(opened.metadata.payer.name).toBe(name)

  // the customer pays from the link, in chromium, with a wallet of their own
  const payer = await createPayer(devnetClients(rpcUrl, chainId), { chainId, ...contracts }, parseUnits('1000', 6))
  const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })
  const page = await context.newPage()
  await injectTestWallet(page, { privateKey: payer.ownerPrivateKey, rpcUrl, chainId })
  await page.goto(shareLink)
  await page.getByRole('heading', { name: 'Choose a wallet to pay with' }).waitFor({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await page.getByRole('button', { name: /^Pay / }).waitFor({ timeout: 20_000 })
  await clickPay(page)
  await page.getByRole('heading', { name: 'Payment received' }).waitFor({ timeout: 30_000 })

  // the merchant reads it Paid: the detail from the chain, the list once its index has the payment
  await expect.poll(async () => (await call('GET', `/v1/invoices/${invoiceId}`, { query: 'mode=strong' })).body.data?.status).toBe('Paid')
  await expect
    .poll(async () => (await call('GET', '/v1/invoices', { query: `customerId=${customerId}&mode=eventual` })).body.data?.items.map((item: { id: string; status: string }) => [item.id, item.status]), { timeout: 20_000 })
    .toEqual([[invoiceId, 'Paid']])

  // and among its received payments: gross = net + fee = the invoice amount, the transaction the
  // chain's InvoicePaid is in, and the payer who paid it
  const row = async () =>
    ((await call('GET', '/v1/payments', { query: `payer=${payer.vault}` })).body.data?.payments as { id: string }[] | undefined)?.find((payment) => payment.id === invoiceId) as
      | { grossAmount: string; netAmount: string; protocolFee: string; transactionHash: string; payer: string; settlementSource: string }
      | undefined
  await expect.poll(row, { timeout: 20_000 }).toBeDefined()
  const payment = (await row())!
  expect(payment).toMatchObject({ grossAmount: '12340000', settlementSource: 'event' })
  expect(BigInt(payment.netAmount) + BigInt(payment.protocolFee)).toBe(12_340_000n)
  expect(payment.payer.toLowerCase()).toBe(payer.vault.toLowerCase())
  const receipt = await checkout.chain().getTransactionReceipt({ hash: payment.transactionHash as `0x${string}` })
  const [paid] = parseEventLogs({ abi: invoiceRegistryAbi, eventName: 'InvoicePaid', logs: receipt.logs })
  expect(paid?.args.id).toBe(BigInt(invoiceId))

  // a second invoice, canceled by the server signer: its link says so, read from the chain
  const second = await issue(customerId, '5000000', false)
  expect(second.status).toBe(200)
  const canceled = await call('POST', `/v1/invoices/${second.body.id}/cancel/submit`, { body: {} })
  expect(canceled).toMatchObject({ status: 200, body: { id: second.body.id, status: 'Canceled' } })
  await page.goto(second.body.shareLink)
  await page.getByRole('heading', { name: 'This invoice was canceled' }).waitFor({ timeout: 20_000 })
  expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0)
  await context.close()
})
