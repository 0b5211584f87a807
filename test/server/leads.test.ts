import { createServer as createTcpServer } from 'node:net'
import { pino } from 'pino'
import { afterAll, describe, expect, test } from 'vitest'
import { silentLogger } from '../../server/http/logger'
import { smtpMailer } from '../../server/merchant/email/smtpMailer'
import { leadConfirmationTexts } from '../../server/merchant/leads/leadConfirmationText'
import { receiveLead } from '../../server/merchant/leads/receiveLead'
import { languageCodes } from '../../src/ui/languages'
import { useInProcessApp } from '../support/inProcessApp'
import { startTestMailbox, type TestMailbox } from '../support/mailbox'
import { answerOf } from '../support/signedRequest'

let mailbox: TestMailbox
const operator = 'sales@northwind.example'

const ctx = useInProcessApp({
  // one proxy in front, as production has: x-forwarded-for names the client, so tests can be two clients
  trustedProxies: { hops: 1 },
  merchant: async (stores) => {
    mailbox = await startTestMailbox()
    return { leads: { leads: stores.leads, mailer: smtpMailer({ smtpUrl: mailbox.url, from: 'Northwind <hello@northwind.example>' }), notifyTo: operator, logger: silentLogger } }
  },
})
afterAll(() => mailbox?.close())

const enquiry = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@fleet.example',
  company: 'Fleet Analytics',
  role: 'Head of payments',
  useCaseDescription: 'We pay 400 publishers a month in USDC and want invoices for each payout.',
  platformType: 'dsp',
  monthlyVolume: '500k_2m',
  timeline: '1_3_months',
  sourcePage: '/pricing',
}

const post = async (body: unknown, headers: Record<string, string> = {}) =>
  answerOf(await ctx.fetch('http://checkout.test/v1/leads', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }))

/** The mails that arrived for `to` among the next `count`, in any order (the two go out side by side). */
async function nextMails(count: number) {
  const mails = []
  for (let i = 0; i < count; i++) mails.push(await mailbox.nextMessage())
  return mails
}

describe('POST /v1/leads', () => {
  test('keeps the enquiry and answers 201 with its id, without any credential; the team is told and the enquirer confirmed, in plain words', async () => {
    const answer = await post(enquiry)
    expect(answer.status).toBe(201)
    expect(answer.body).toEqual({ data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } })
    const { id } = answer.body.data
    const mails = await nextMails(2)
    const notice = mails.find((mail) => mail.to && 'text' in mail.to && mail.to.text === operator)!
    const confirmation = mails.find((mail) => mail.to && 'text' in mail.to && mail.to.text === enquiry.email)!
    expect(notice.subject).toBe('New enquiry from Grace Hopper, Fleet Analytics')
    expect(notice.text).toContain('Reply to: grace@fleet.example')
    expect(notice.text).toContain('Monthly volume: 500k to 2M')
    expect(notice.text).toContain(enquiry.useCaseDescription)
    expect(notice.text).toContain(`Enquiry ${id}`)
    expect(confirmation.subject).toBe('We have your enquiry')
    expect(confirmation.text).toMatch(/No account has been opened for you/)
    // what anyone may type is never sent on to the address they typed
    expect(confirmation.text).not.toContain('Fleet')
    expect(confirmation.text).not.toContain('Grace')
    await expect.poll(async () => await ctx.stores.leads.getLead(id)).toMatchObject({
      ...enquiry,
      operatorNotifiedAt: expect.any(Date),
      confirmationSentAt: expect.any(Date),
    })
    // an enquiry opens no account: the studios are the one the app started with
    expect(Number((await ctx.stores.db.query<{ count: string }>('SELECT count(*) FROM studios'))[0]!.count)).toBe(1)
  })

  test("an enquirer whose browser reads German is confirmed in German, and the team told which language to answer in; a language the product does not speak is confirmed in English", async () => {
    const recipientOf = (mail: Awaited<ReturnType<typeof nextMails>>[number]) => (mail.to && 'text' in mail.to ? mail.to.text : '')
    const german = await post({ ...enquiry, email: 'lea@werkstatt.example', firstName: 'Lea', company: 'Werkstatt Zahlungen' }, { 'accept-language': 'de-AT, de;q=0.9, en;q=0.5' })
    expect(german.status).toBe(201)
    const germanMails = await nextMails(2)
    const confirmation = germanMails.find((mail) => recipientOf(mail) === 'lea@werkstatt.example')!
    expect(confirmation.subject).toBe('Wir haben Ihre Anfrage erhalten')
    expect(confirmation.text).toContain('Ihre Anfrage ist bei unserem Team angekommen')
    expect(confirmation.text).toContain('Es wurde kein Konto für Sie eröffnet')
    expect(confirmation.headers.get('content-language')).toBe('de')
    // in any language, it quotes nothing the form carried
    expect(confirmation.text).not.toMatch(/Lea|Werkstatt/)
    expect(germanMails.find((mail) => recipientOf(mail) === operator)!.text).toContain('Confirmation language: Deutsch (de)')

    const swahili = await post({ ...enquiry, email: 'amani@soko.example' }, { 'accept-language': 'sw-KE, sw;q=0.9' })
    expect(swahili.status).toBe(201)
    const swahiliMails = await nextMails(2)
    const fallback = swahiliMails.find((mail) => recipientOf(mail) === 'amani@soko.example')!
    expect(fallback.subject).toBe('We have your enquiry')
    expect(fallback.text).toMatch(/No account has been opened for you/)
    expect(fallback.headers.get('content-language')).toBe('en')
    expect(swahiliMails.find((mail) => recipientOf(mail) === operator)!.text).toContain('Confirmation language: English (en)')
  })

  test('the confirmation is written in each of the 16 languages, none of them a copy of the English', () => {
    for (const code of languageCodes) {
      const { subject, paragraphs } = leadConfirmationTexts[code]
      expect(paragraphs, code).toHaveLength(leadConfirmationTexts.en.paragraphs.length)
      if (code === 'en') continue
      expect([subject, ...paragraphs].filter((text) => [leadConfirmationTexts.en.subject, ...leadConfirmationTexts.en.paragraphs].includes(text)), code).toEqual([])
    }
  })

  test("refuses what 4.7's table refuses, at the field, and keeps nothing", async () => {
    const before = (await ctx.stores.db.query<{ count: string }>('SELECT count(*) FROM leads'))[0]!.count
    const cases: [string, unknown, string][] = [
      ['no first name', { ...enquiry, firstName: undefined }, 'body.firstName'],
      ['a last name of 101 characters', { ...enquiry, lastName: 'x'.repeat(101) }, 'body.lastName'],
      ['an invalid email', { ...enquiry, email: 'grace' }, 'body.email'],
      ['an email of 255 characters', { ...enquiry, email: `${'g'.repeat(243)}@fleet.example` }, 'body.email'],
      ['a company of 201 characters', { ...enquiry, company: 'c'.repeat(201) }, 'body.company'],
      ['an empty role', { ...enquiry, role: '  ' }, 'body.role'],
      ['a use case of 9 characters', { ...enquiry, useCaseDescription: 'too short' }, 'body.useCaseDescription'],
      ['a use case of 2001 characters', { ...enquiry, useCaseDescription: 'u'.repeat(2001) }, 'body.useCaseDescription'],
      ['an unknown platform', { ...enquiry, platformType: 'retail' }, 'body.platformType'],
      ['an unknown volume', { ...enquiry, monthlyVolume: '1m' }, 'body.monthlyVolume'],
      ['an unknown timeline', { ...enquiry, timeline: 'someday' }, 'body.timeline'],
      ['a referral source of 201 characters', { ...enquiry, referralSource: 'r'.repeat(201) }, 'body.referralSource'],
      ['a source page of 201 characters', { ...enquiry, sourcePage: 'p'.repeat(201) }, 'body.sourcePage'],
      ['notes of 2001 characters', { ...enquiry, additionalNotes: 'n'.repeat(2001) }, 'body.additionalNotes'],
      ['a source plan of 101 characters', { ...enquiry, sourcePlan: 'p'.repeat(101) }, 'body.sourcePlan'],
      ['a field 4.7 does not name', { ...enquiry, feeBps: 0 }, 'body'],
    ]
    for (const [name, body, path] of cases) {
      const answer = await post(body)
      expect({ name, status: answer.status, code: answer.body.error, paths: answer.body.details?.map((issue: { path: string }) => issue.path) }).toEqual({ name, status: 400, code: 'VALIDATION_ERROR', paths: expect.arrayContaining([path]) })
    }
    // at the limits it is taken (each address its own: an address is confirmed once a day)
    const longest = { ...enquiry, email: 'longest@fleet.example', firstName: 'f'.repeat(100), useCaseDescription: 'u'.repeat(2000), additionalNotes: 'n'.repeat(2000), sourcePlan: 'p'.repeat(100), referralSource: 'r'.repeat(200) }
    expect((await post(longest)).status).toBe(201)
    expect((await post({ ...enquiry, email: 'shortest@fleet.example', useCaseDescription: 'ten chars!' })).status).toBe(201)
    await nextMails(4)
    expect(Number((await ctx.stores.db.query<{ count: string }>('SELECT count(*) FROM leads'))[0]!.count)).toBe(Number(before) + 2)
  })

  test('an API key or a bearer token beside the form changes nothing: the route takes no credential', async () => {
    const answer = await post({ ...enquiry, email: 'credentials@fleet.example' }, { authorization: 'Bearer not-a-token', 'x-svc-key': 'svc_pk_unused' })
    expect(answer.status).toBe(201)
    await nextMails(2)
  })

  test('a mail server that refuses the connection loses nothing: the enquiry is kept, with neither mail marked sent', async () => {
    // a port that was listening and is closed again: the connection is refused at once
    const closed = await new Promise<number>((resolve) => {
      const server = createTcpServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number }
        server.close(() => resolve(port))
      })
    })
    const lines: string[] = []
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) })
    const mailer = smtpMailer({ smtpUrl: `smtp://127.0.0.1:${closed}`, from: 'Northwind <hello@northwind.example>' })
    const unmailed = 'unmailed@fleet.example'
    const { id, mailed } = await receiveLead({ leads: ctx.stores.leads, mailer, notifyTo: operator, logger }, { ...enquiry, lastName: 'Unmailed', email: unmailed } as Parameters<typeof receiveLead>[1], 'en')
    await mailed
    expect(await ctx.stores.leads.getLead(id)).toMatchObject({ lastName: 'Unmailed', operatorNotifiedAt: null, confirmationSentAt: null })
    const warnings = lines.map((line) => JSON.parse(line) as { msg: string; mail: string; lead: string; err: { message: string } })
    expect(warnings.map((warning) => [warning.msg, warning.mail, warning.lead]).sort()).toEqual([
      ['an enquiry mail was not sent', 'confirmation', id],
      ['an enquiry mail was not sent', 'operator', id],
    ])
    // the reason, never the enquirer's address
    expect(warnings[0]!.err.message).toMatch(/ECONNREFUSED/)
    expect(lines.join('\n')).not.toContain(unmailed)
    mailer.close()
    // the confirmation that did not go leaves the address's day free: the next enquiry confirms it
    expect((await post({ ...enquiry, email: unmailed })).status).toBe(201)
    expect((await nextMails(2)).map((mail) => mail.to && 'text' in mail.to && mail.to.text).sort()).toEqual([operator, unmailed].sort())
  })

  test('an address gets one confirmation a day, however many clients send enquiries naming it, however it is written; every enquiry is kept and the team told of each', async () => {
    const before = mailbox.files().length
    const first = await post({ ...enquiry, email: 'ada@analytical.example', lastName: 'Lovelace' }, { 'x-forwarded-for': '198.51.100.7' })
    const second = await post({ ...enquiry, email: 'Ada+again@Analytical.example', lastName: 'Byron' }, { 'x-forwarded-for': '203.0.113.9' })
    expect([first.status, second.status]).toEqual([201, 201])
    // both enquiries done with: the first confirmed, the second's confirmation withheld, the team told of each
    await expect.poll(async () => await ctx.stores.leads.getLead(first.body.data.id)).toMatchObject({ lastName: 'Lovelace', operatorNotifiedAt: expect.any(Date), confirmationSentAt: expect.any(Date), confirmationWithheldAt: null })
    await expect.poll(async () => await ctx.stores.leads.getLead(second.body.data.id)).toMatchObject({ lastName: 'Byron', email: 'Ada+again@Analytical.example', operatorNotifiedAt: expect.any(Date), confirmationSentAt: null, confirmationWithheldAt: expect.any(Date) })
    await expect.poll(() => mailbox.files().length - before).toBe(3)
    const mails = await nextMails(3)
    const recipients = mails.map((mail) => (mail.to && 'text' in mail.to ? mail.to.text : '')).sort()
    expect(recipients).toEqual(['ada@analytical.example', operator, operator].sort())
    expect(mails.filter((mail) => mail.subject === 'We have your enquiry')).toHaveLength(1)
    // the address is kept once, in its enquiry: what counts its confirmations holds only a hash
    const counted = await ctx.stores.db.query<{ recipient_hash: string }>('SELECT recipient_hash FROM lead_confirmations')
    expect(JSON.stringify(counted)).not.toMatch(/analytical/i)
  })
})

