import { afterAll, beforeAll, expect, test } from 'vitest'
import { seedDemoCustomer, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { startTestMailbox, type TestMailbox } from '../support/mailbox'
import { signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'

let mailbox: TestMailbox
const ctx = useServer({
  async beforeServer() {
    mailbox = await startTestMailbox()
    return { SMTP_URL: mailbox.url, MAIL_FROM: 'Northwind invoices <invoices@northwind.example>' }
  },
})
afterAll(() => mailbox?.close())
let key: { keyId: string; secret: string }
let customerId: string

beforeAll(async () => {
  const access = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  key = access.apiKey
  customerId = (await seedDemoCustomer(ctx.server.stores, access.studioId)).id
})

test('behavior: sendEmail mails the customer the invoice with its share link, and a retry with the same key answers that delivery without a second mail', async () => {
  const idempotencyKey = crypto.randomUUID()
  const issue = () =>
    signedRequest(ctx.server.url, key, {
      method: 'POST',
      path: '/v1/invoices/issue',
      body: JSON.stringify({ customerId, amount: '99000000', dueDays: 7, description: 'Brand workshop', sendEmail: true }),
      send: { headers: { 'idempotency-key': idempotencyKey } },
    })
  const issued = await issue()
  expect(issued.status).toBe(200)
  expect(issued.body.delivery).toEqual({ status: 'sent', messageId: expect.stringMatching(/^<.+@.+>$/), to: 'accounts@acme-robotics.example' })
  const mail = await mailbox.nextMessage()
  expect(mail.messageId).toBe(issued.body.delivery.messageId)
  expect(mail.to).toMatchObject({ text: 'accounts@acme-robotics.example' })
  expect(mail.text).toContain(issued.body.shareLink)

  const again = await issue()
  expect(again.body).toEqual({ ...issued.body, idempotency: { key: idempotencyKey, replayed: true, state: 'confirmed' } })
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(mailbox.files()).toHaveLength(1)
})
