import { afterAll, describe, expect, test } from 'vitest'
import { deliverInvoiceEmail } from '../../server/merchant/email/deliverInvoiceEmail'
import { smtpMailer } from '../../server/merchant/email/smtpMailer'
import { silentLogger } from '../../server/http/logger'
import { useInstances } from '../support/instances'
import { startTestMailbox, type TestMailbox } from '../support/mailbox'
import { answerOf, signedRequest } from '../support/signedRequest'

let mailbox: TestMailbox
const ctx = useInstances({
  async beforeServers() {
    mailbox = await startTestMailbox()
    return { SMTP_URL: mailbox.url, MAIL_FROM: 'Northwind invoices <invoices@northwind.example>' }
  },
})
afterAll(() => mailbox?.close())
let frenchCustomerId: string

const server = () => ctx.servers[0]
const seeded = (index: number) => ctx.devnet.seed.invoices[index]!
const sendEmail = (id: bigint | string, body: string | undefined = '{}', key = ctx.merchant.apiKey) =>
  signedRequest(server().url, key, { method: 'POST', path: `/v1/invoices/${id}/send-email`, ...(body === undefined ? {} : { body }) })

/** The link's path and query on the server itself: the link names the public origin (PUBLIC_URL). */
const onServer = (link: string) => {
  const url = new URL(link)
  return `${server().url}${url.pathname}${url.search}`
}

describe('POST /v1/invoices/:id/send-email', () => {
  test('default: the SMTP server receives the mail, in German for a customer in Germany, and its link opens the invoice', async () => {
    const invoice = seeded(0)
    const answer = await sendEmail(invoice.id)
    expect(answer).toMatchObject({ status: 200, body: { delivery: { status: 'sent', messageId: expect.stringMatching(/^<.+@.+>$/), to: 'accounts@acme-robotics.example' } } })

    const mail = await mailbox.nextMessage()
    expect(mail.messageId).toBe(answer.body.delivery.messageId)
    expect(mail.to).toMatchObject({ text: 'accounts@acme-robotics.example' })
    expect(mail.from?.value).toEqual([{ name: 'Northwind invoices', address: 'invoices@northwind.example' }])
    expect(mail.headers.get('content-language')).toBe('de')
    expect(mail.subject).toBe(`Rechnung ${invoice.metadata.invoiceNumber} von Northwind Studio Ltd`)
    const due = new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Number(invoice.dueAt) * 1000))
    const amount = new Intl.NumberFormat('de', { minimumFractionDigits: 2 }).format(Number(invoice.amount) / 1e6)
    expect(mail.text).toContain(`Guten Tag Acme Robotics GmbH,`)
    expect(mail.text).toContain(`Northwind Studio Ltd hat Ihnen die Rechnung ${invoice.metadata.invoiceNumber} über ${amount} USDC gesendet, fällig am ${due}.`)
    expect(amount).toMatch(/,\d\d$/)

    const link = mail.text!.match(/https:\/\/\S+/)![0]
    expect(link).toBe(ctx.shareLinks[0]!.shareLink)
    const opened = await answerOf(await fetch(onServer(link).replace('/pay/', '/v1/pay/').replace('?token=', '/metadata?token=')))
    expect(opened.status).toBe(200)
    expect(opened.body).toMatchObject({ accessLevel: 'full', metadata: { invoiceNumber: invoice.metadata.invoiceNumber, payer: { name: 'Acme Robotics GmbH' } } })
  })

  test('behavior: asked again, it is sent again and the delivery counts two attempts', async () => {
    const invoice = seeded(1)
    const first = await sendEmail(invoice.id, undefined)
    const second = await sendEmail(invoice.id)
    expect([first.body.delivery.status, second.body.delivery.status]).toEqual(['sent', 'sent'])
    expect(second.body.delivery.messageId).not.toBe(first.body.delivery.messageId)
    const subjects = [(await mailbox.nextMessage()).subject, (await mailbox.nextMessage()).subject]
    expect(subjects).toEqual([`Rechnung ${invoice.metadata.invoiceNumber} von Northwind Studio Ltd`, `Rechnung ${invoice.metadata.invoiceNumber} von Northwind Studio Ltd`])
    const record = await server().stores.emailDeliveries.find(server().stores.invoiceKey(invoice.id))
    expect(record).toMatchObject({ status: 'sent', attempts: 2, messageId: second.body.delivery.messageId, recipient: 'accounts@acme-robotics.example', error: null })
  })

  test("behavior: a merchant's requests for one invoice's mail are capped at five a UTC day: the sixth answers 429 EMAIL_REQUEST_LIMIT with Retry-After until midnight, and no mail goes out", async () => {
    const invoice = seeded(1)
    const key = server().stores.invoiceKey(invoice.id)
    // the test before sent two today; three more make five
    for (let i = 0; i < 3; i++) expect((await sendEmail(invoice.id)).body.delivery.status).toBe('sent')
    for (let i = 0; i < 3; i++) await mailbox.nextMessage()
    const received = mailbox.files().length
    const refused = await sendEmail(invoice.id)
    expect(refused).toMatchObject({ status: 429, body: { error: 'EMAIL_REQUEST_LIMIT', code: 'EMAIL_REQUEST_LIMIT', limit: 5 } })
    const resetsAt = Date.parse(refused.body.resetsAt)
    expect(new Date(resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/)
    expect(Math.abs(Date.now() + Number(refused.headers.get('retry-after')) * 1000 - resetsAt)).toBeLessThan(5_000)
    expect(await server().stores.emailDeliveries.find(key)).toMatchObject({ attempts: 5, status: 'sent' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailbox.files().length).toBe(received)
  })

  test('behavior: issuance mails at most once: its retry answers the first delivery and sends nothing', async () => {
    const invoice = seeded(2)
    const stores = server().stores
    const email = { mailer: smtpMailer({ smtpUrl: mailbox.url, from: 'invoices@northwind.example' }), deliveries: stores.emailDeliveries, logger: silentLogger }
    const parameters = {
      studioId: ctx.merchant.studioId,
      invoice: stores.invoiceKey(invoice.id),
      recipient: { customerId: null, name: 'Acme Robotics GmbH', email: 'accounts@acme-robotics.example', country: 'DE' },
      mail: { merchantName: 'Northwind Studio Ltd', invoiceNumber: invoice.metadata.invoiceNumber, amount: invoice.amount, token: { symbol: 'USDC', decimals: 6 }, dueAt: invoice.dueAt, shareLink: ctx.shareLinks[2]!.shareLink },
      trigger: 'issuance' as const,
    }
    const before = mailbox.files().length
    const first = await deliverInvoiceEmail(email, parameters)
    const retried = await deliverInvoiceEmail(email, parameters)
    expect(first).toEqual({ status: 'sent', messageId: expect.any(String), to: 'accounts@acme-robotics.example' })
    expect(retried).toEqual(first)
    await mailbox.nextMessage()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mailbox.files()).toHaveLength(before + 1)
  })

  test("behavior: with a customerId, the studio's customer is mailed, at its address and in its language", async () => {
    const created = await signedRequest(server().url, ctx.merchant.apiKey, {
      method: 'POST',
      path: '/v1/customers',
      body: JSON.stringify({ type: 'person', legalName: 'Camille Martin', email: 'camille@martin.example', address: { street: '8 rue des Lilas', city: 'Lyon', postal: '69003', country: 'FR' } }),
    })
    expect(created.status).toBe(201)
    frenchCustomerId = created.body.data.id
    const invoice = seeded(0)
    const answer = await sendEmail(invoice.id, JSON.stringify({ customerId: frenchCustomerId }))
    expect(answer).toMatchObject({ status: 200, body: { delivery: { status: 'sent', to: 'camille@martin.example' } } })
    const mail = await mailbox.nextMessage()
    expect(mail.to).toMatchObject({ text: 'camille@martin.example' })
    expect(mail.subject).toBe(`Northwind Studio Ltd\u00a0: facture ${invoice.metadata.invoiceNumber}`)
    expect(mail.text).toContain('Bonjour Camille Martin,')
    expect(await sendEmail(seeded(1).id, JSON.stringify({ customerId: crypto.randomUUID() }))).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } })
  })

  test('behavior: issuance with sendEmail mails the customer once; send-email then checks the customerId against the one it was issued to', async () => {
    const acme = await server().stores.customers.findCustomerByName(ctx.merchant.studioId, 'Acme Robotics GmbH')
    const issued = await signedRequest(server().url, ctx.merchant.apiKey, {
      method: 'POST',
      path: '/v1/invoices/issue',
      body: JSON.stringify({ customerId: acme!.id, amount: '2500000', dueDays: 14, sendEmail: true }),
      send: { headers: { 'idempotency-key': crypto.randomUUID() } },
    })
    expect(issued).toMatchObject({ status: 200, body: { status: 'Issued', delivery: { status: 'sent', to: 'accounts@acme-robotics.example' } } })
    const mail = await mailbox.nextMessage()
    expect(mail.subject).toBe(`Rechnung ${issued.body.invoiceNumber} von Northwind Studio Ltd`)
    expect(mail.text).toContain(issued.body.shareLink)
    expect(await sendEmail(issued.body.id, JSON.stringify({ customerId: frenchCustomerId }))).toMatchObject({ status: 400, body: { error: 'CUSTOMER_MISMATCH' } })
    expect(await sendEmail(issued.body.id, JSON.stringify({ customerId: acme!.id }))).toMatchObject({ status: 200, body: { delivery: { status: 'sent', to: 'accounts@acme-robotics.example' } } })
    await mailbox.nextMessage()
  })

  test('behavior: without an SMTP server configured, a delivery answers not_configured and records nothing', async () => {
    const stores = server().stores
    const invoice = stores.invoiceKey(424_242n)
    const answer = await deliverInvoiceEmail(
      { mailer: null, deliveries: stores.emailDeliveries, logger: silentLogger },
      {
        studioId: ctx.merchant.studioId,
        invoice,
        recipient: { customerId: null, name: 'Acme Robotics GmbH', email: 'accounts@acme-robotics.example', country: 'DE' },
        mail: { merchantName: 'Northwind Studio Ltd', invoiceNumber: '9', amount: 1_000_000n, token: { symbol: 'USDC', decimals: 6 }, dueAt: 1_900_000_000n, shareLink: 'https://checkout.example.test/pay/424242?token=svc_tk_x' },
        trigger: 'issuance',
      },
    )
    expect(answer).toEqual({ status: 'not_configured', to: 'accounts@acme-robotics.example' })
    expect(await stores.emailDeliveries.find(invoice)).toBeNull()
  })

  test('behavior: only an Issued invoice is mailed: a canceled one answers INVALID_STATUS', async () => {
    const invoice = seeded(3)
    await ctx.devnet.cancelInvoice(invoice.id)
    expect(await sendEmail(invoice.id)).toMatchObject({ status: 400, body: { error: 'INVALID_STATUS', code: 'INVALID_STATUS' } })
  })

  test('behavior: bad input answers 4xx with the code, never a 500', async () => {
    const readOnly = await server().stores.apiKeys.createApiKey({ studioId: ctx.merchant.studioId, name: 'read only', scopes: ['invoice:read'] })
    const withoutMetadata = await ctx.devnet.newInvoice(1_000_000n)
    const answers = await Promise.all([
      sendEmail(seeded(0).id, JSON.stringify({ customerId: 'not-a-uuid' })),
      sendEmail(seeded(0).id, JSON.stringify({ to: 'someone@else.example' })),
      sendEmail(seeded(0).id, '{'),
      sendEmail('12abc'),
      sendEmail(999_999n),
      sendEmail(withoutMetadata.id),
      sendEmail(seeded(0).id, '{}', { keyId: readOnly.keyId, secret: readOnly.secret }),
    ])
    expect(answers.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [400, 'VALIDATION_ERROR'],
      [404, 'NOT_FOUND'],
      [409, 'NO_INVOICE_METADATA'],
      [403, 'FORBIDDEN'],
    ])
  })

  // last: it stops the mailbox
  test('behavior: an unreachable SMTP server gives a failed delivery, not a 500', async () => {
    await mailbox.close()
    const answer = await sendEmail(seeded(0).id)
    expect(answer).toEqual({ status: 200, body: { delivery: { status: 'failed', to: 'accounts@acme-robotics.example' } }, headers: expect.anything() })
    const record = await server().stores.emailDeliveries.find(server().stores.invoiceKey(seeded(0).id))
    expect(record).toMatchObject({ status: 'failed', messageId: null, attempts: 3, error: 'the SMTP server did not take the mail: ESOCKET, ECONNREFUSED' })
    expect(record!.error).not.toContain('token')
  })
})
