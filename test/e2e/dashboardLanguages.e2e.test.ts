import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContextOptions, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { login } from '../../cli/oauth/oauthLogin'
import { signedRequest } from '../support/signedRequest'
import { accessibleAtEveryWidth } from './support/accessibleAtEveryWidth'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { throughSignIn } from './support/throughSignIn'

/**
 * The dashboard and the authorization server's consent page in the merchant's language, in chromium
 * against the devnet `npm start` runs: a browser that prefers Arabic gets the dashboard right to left
 * in Arabic; one in English switches it to German and reads its own invoice's amount as Germans write
 * it; a CLI's sign-in shows the consent page in German, and in Arabic once the person picks it. Each
 * page is checked by axe against WCAG 2.2 AA at a desktop and a phone width.
 */

const checkout = useCheckoutInBrowser()

async function newPage(options: BrowserContextOptions) {
  const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options })
  return context.newPage()
}

const direction = (page: Page) => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, getComputedStyle(document.body).direction])

describe('the dashboard and the consent page in the merchant\'s language', () => {
  test('behavior: a browser that prefers Arabic gets the dashboard right to left with Arabic labels, signed out and signed in', async () => {
    const page = await newPage({ locale: 'ar-EG' })
    try {
      await page.goto(checkout.devnet.file.dashboardUrl!)
      await page.getByRole('heading', { level: 1, name: 'تسجيل الدخول' }).waitFor()
      expect(await direction(page)).toEqual(['ar', 'rtl', 'rtl'])
      // the switch names the language in itself
      expect(await page.getByLabel('اللغة').inputValue()).toBe('ar')
      await accessibleAtEveryWidth(page, 'dashboard-ar-sign-in', 'languages-')

      await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
      const invoices = page.getByRole('heading', { level: 1, name: 'الفواتير' })
      await throughSignIn(page, checkout.devnet.file.merchant.login!, () => invoices.isVisible())
      await page.getByLabel('المبلغ (USDC)').waitFor()
      await page.getByRole('button', { name: 'إصدار الفاتورة' }).waitFor()
      await page.getByRole('link', { name: 'العملاء' }).waitFor()
      expect(await direction(page)).toEqual(['ar', 'rtl', 'rtl'])
      // the bar reads from the right: the brand stands right of the language switch
      const brand = (await page.locator('.brand').boundingBox())!
      const languageSwitch = (await page.getByLabel('اللغة').boundingBox())!
      expect(brand.x).toBeGreaterThan(languageSwitch.x)
      expect(await page.title()).toContain('لوحة تحكم التاجر')
      await accessibleAtEveryWidth(page, 'dashboard-ar-invoices', 'languages-')
    } finally {
      await page.context().close()
    }
  }, 120_000)

  test('behavior: switched to German, the dashboard writes its own invoice\'s amount and due date as Germans do, and stays German on the next visit', async () => {
    const { serverUrl, merchant, dashboardUrl } = checkout.devnet.file
    const customer = await signedRequest(serverUrl, merchant.apiKey, {
      method: 'POST',
      path: '/v1/customers',
      body: JSON.stringify({ type: 'person', legalName: `Sprachtest ${randomUUID().slice(0, 8)}`, email: 'sprache@customer.example', address: { street: 'Hauptstraße 3', city: 'Köln', postal: '50667', country: 'DE' } }),
    })
    expect(customer.status).toBe(201)
    const issued = await signedRequest(serverUrl, merchant.apiKey, {
      method: 'POST',
      path: '/v1/invoices/issue',
      body: JSON.stringify({ customerId: customer.body.data.id, amount: '1234560000', dueDays: 10, description: 'Sprachtest', sendEmail: false }),
      send: { headers: { 'idempotency-key': randomUUID() } },
    })
    expect(issued.status).toBe(200)
    const number = (issued.body.documentNumber ?? issued.body.invoiceNumber) as string
    const dueAt = Number((await signedRequest(serverUrl, merchant.apiKey, { method: 'GET', path: `/v1/invoices/${issued.body.id}` })).body.data.dueAt)

    const page = await newPage({ locale: 'en-US', timezoneId: 'UTC' })
    try {
      await page.goto(dashboardUrl!)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await throughSignIn(page, checkout.devnet.file.merchant.login!, () => page.getByRole('heading', { level: 1, name: 'Invoices' }).isVisible())
      await page.getByLabel('Language').selectOption({ label: 'Deutsch' })
      await page.getByRole('heading', { level: 1, name: 'Rechnungen' }).waitFor()
      expect(await direction(page)).toEqual(['de', 'ltr', 'ltr'])

      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) })
      // listed once the registry's follower has indexed it: refreshed as a merchant would
      await expect
        .poll(
          async () => {
            if ((await row.count()) === 0) await page.getByRole('button', { name: 'Aktualisieren' }).click()
            return row.count()
          },
          { timeout: 30_000 },
        )
        .toBe(1)
      const due = new Date(dueAt * 1000)
      const germanDate = `${String(due.getUTCDate()).padStart(2, '0')}.${String(due.getUTCMonth() + 1).padStart(2, '0')}.${due.getUTCFullYear()}`
      expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['1.234,56 USDC', 'Offen', germanDate]))
      await accessibleAtEveryWidth(page, 'dashboard-de-invoices', 'languages-')

      // the choice outlives the page: the next visit opens in German though the browser prefers English
      await page.reload()
      await page.getByRole('heading', { level: 1, name: 'Rechnungen' }).waitFor()
      expect(await page.getByLabel('Sprache').inputValue()).toBe('de')
    } finally {
      await page.context().close()
    }
  }, 120_000)

  test('behavior: a CLI sign-in shows the consent page in German from the browser\'s language, and in Arabic right to left once picked, its refusal of a missing limit too; allowing it in Arabic signs the CLI in', async () => {
    const { serverUrl } = checkout.devnet.file
    const credentialsPath = join(await mkdtemp(join(tmpdir(), 'consent-languages-')), 'credentials.json')
    let authorizeAt: (url: string) => void = () => {}
    const shown = new Promise<string>((resolve) => (authorizeAt = resolve))
    const signingIn = login({ serverUrl, credentialsPath, showUrl: authorizeAt })
    const page = await newPage({ locale: 'de-DE' })
    try {
      await page.goto(await shown)
      const german = page.getByRole('heading', { level: 1, name: 'Zugriff auf Ihr Studio erlauben' })
      await throughSignIn(page, checkout.devnet.file.merchant.login!, () => german.isVisible())
      expect(await direction(page)).toEqual(['de', 'ltr', 'ltr'])
      // the scopes and the limits in plain German, each field labelled
      await page.getByLabel('Ihre Kunden lesen').waitFor()
      expect(await page.getByLabel('Rechnungen ausstellen und stornieren und sie Ihren Kunden per E-Mail senden').isChecked()).toBe(false)
      // the largest invoice in USDC as the merchant writes amounts, not in the token's base units
      expect(await page.getByLabel('Höchste Rechnung, in USDC').inputValue()).toBe('1000')
      await page.getByLabel('Rechnungen in 24 Stunden').waitFor()
      await page.getByRole('button', { name: 'Erlauben' }).waitFor()
      await accessibleAtEveryWidth(page, 'consent-de', 'languages-')

      // the switch, folded under the current language, opened as a person opens it
      const languages = page.getByRole('navigation', { name: 'Sprache' })
      await languages.getByText('Sprache: Deutsch').click()
      await languages.getByRole('link', { name: 'العربية' }).click()
      await page.getByRole('heading', { level: 1, name: 'السماح بالوصول إلى الاستوديو الخاص بك' }).waitFor()
      expect(await direction(page)).toEqual(['ar', 'rtl', 'rtl'])
      await page.getByLabel('قراءة بيانات عملائك').waitFor()
      await accessibleAtEveryWidth(page, 'consent-ar', 'languages-')
      // issuing allowed without a usable limit: the refusal says so in Arabic
      await page.getByLabel('إصدار الفواتير وإلغاؤها وإرسالها بالبريد الإلكتروني إلى عملائك').check()
      await page.getByLabel('عدد الفواتير خلال 24 ساعة').fill('0')
      await page.getByRole('button', { name: 'سماح' }).click()
      await page.getByRole('heading', { level: 1, name: 'الحدود مطلوبة' }).waitFor()
      expect(await direction(page)).toEqual(['ar', 'rtl', 'rtl'])
      await page.goBack()
      await page.getByRole('heading', { level: 1, name: 'السماح بالوصول إلى الاستوديو الخاص بك' }).waitFor()
      // the browser keeps what was typed on the way back: the person allows reads only this time
      await page.getByLabel('إصدار الفواتير وإلغاؤها وإرسالها بالبريد الإلكتروني إلى عملائك').uncheck()
      await page.getByRole('button', { name: 'سماح' }).click()
      const signedIn = await signingIn
      expect((await fetch(`${serverUrl}/v1/customers?limit=1`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } })).status).toBe(200)
    } finally {
      await page.context().close()
    }
  }, 120_000)
})
