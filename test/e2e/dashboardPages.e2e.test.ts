import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { login } from '../../cli/oauth/oauthLogin'
import { signedRequest } from '../support/signedRequest'
import { startWebhookReceiver, verified } from '../support/webhookReceiver'
import { accessibleAtEveryWidth } from './support/accessibleAtEveryWidth'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { throughSignIn } from './support/throughSignIn'

/**
 * The dashboard's settings pages and its paged lists in chromium, signed in as the devnet's demo
 * merchant: an API key's secret is shown once and works, a new secret ends the old one, revocation
 * ends the key; a webhook endpoint added on the page receives a signed delivery at a loopback
 * receiver; the customers list pages forward and back; a CLI signed in through this browser is
 * listed and revoked, its token refused after. Each new view is checked by axe at 1280 and 390 px.
 * The demo studio is shared with the worker's other files: everything asserted here is this file's
 * own (its key, endpoint, invoice and sign-in), found by name or id.
 */

const checkout = useCheckoutInBrowser()
let page: Page

async function open(view: string, heading: string) {
  await page.getByRole('link', { name: view, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

const call = (method: 'GET' | 'POST', path: string, key = checkout.devnet.file.merchant.apiKey, body?: unknown, query?: string) =>
  signedRequest(checkout.devnet.file.serverUrl, key, { method, path, ...(query ? { query } : {}), ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

beforeAll(async () => {
  const { dashboardUrl } = checkout.devnet.file
  const context = await checkout.browser.newContext({ viewport: { width: 1280, height: 900 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(dashboardUrl!).origin })
  page = await context.newPage()
  await page.goto(dashboardUrl!)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const invoices = page.getByRole('heading', { level: 1, name: 'Invoices' })
  await throughSignIn(page, checkout.devnet.file.merchant.login!, () => invoices.isVisible())
}, 120_000)
afterAll(async () => {
  await page?.context().close()
})

describe('the dashboard settings pages', () => {
  test('behavior: an API key is created with its secret shown once, which signs requests; a new secret ends the old one, and revocation ends the key', async () => {
    const name = `Backend ${randomUUID().slice(0, 8)}`
    await open('API keys', 'API keys')
    await page.getByText('about one request in ten (10 %)', { exact: false }).waitFor()
    await accessibleAtEveryWidth(page, 'keys', 'dashboard-')

    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByRole('checkbox', { name: /^invoice:read:/ }).check()
    await page.getByLabel('Expires after (days, 1 to 365; empty for never)').fill('30')
    await page.getByRole('button', { name: 'Create key' }).click()
    const secretPanel = page.getByRole('region', { name: `Secret of ${name}` })
    await secretPanel.waitFor()
    await secretPanel.getByText('you will not see it again').waitFor()
    const secret = (await secretPanel.locator('[data-secret]').textContent())!
    const keyId = (await secretPanel.locator('[data-key-id]').textContent())!
    expect(secret).toMatch(/^svc_sk_/)
    expect(keyId).toMatch(/^svc_pk_/)
    await secretPanel.getByRole('button', { name: 'Copy secret' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    await accessibleAtEveryWidth(page, 'key-secret', 'dashboard-')
    // the key signs a read its scope allows, and is refused a write it does not
    expect((await call('GET', '/v1/invoices', { keyId, secret }, undefined, 'limit=1')).status).toBe(200)
    expect((await call('POST', '/v1/customers', { keyId, secret }, {})).status).toBe(403)

    // once put away, the secret is nowhere on the page, and the list shows only its last characters
    await secretPanel.getByRole('button', { name: 'I have kept it' }).click()
    await secretPanel.waitFor({ state: 'detached' })
    const keysTable = page.getByRole('region', { name: 'API keys, scrollable table' })
    const row = keysTable.getByRole('row').filter({ hasText: name })
    await row.getByText(`…${secret.slice(-4)}`).waitFor()
    expect(await page.content()).not.toContain(secret)

    // a new secret, confirmed: the old one is refused from now on, the new one signs
    page.once('dialog', (dialog) => void dialog.accept())
    await row.getByRole('button', { name: `New secret for ${name}` }).click()
    await secretPanel.waitFor()
    const rotated = (await secretPanel.locator('[data-secret]').textContent())!
    expect(rotated).not.toBe(secret)
    expect((await call('GET', '/v1/invoices', { keyId, secret }, undefined, 'limit=1')).status).toBe(401)
    expect((await call('GET', '/v1/invoices', { keyId, secret: rotated }, undefined, 'limit=1')).status).toBe(200)

    // revoked, confirmed: the key is refused, and listed among the revoked
    let asked = ''
    page.once('dialog', (dialog) => {
      asked = dialog.message()
      void dialog.accept()
    })
    await row.getByRole('button', { name: `Revoke ${name}` }).click()
    await page.getByRole('status').filter({ hasText: `${name} revoked.` }).waitFor()
    expect(asked).toContain('cannot be undone')
    expect((await call('GET', '/v1/invoices', { keyId, secret: rotated }, undefined, 'limit=1')).status).toBe(401)
    await page.getByLabel('Show').selectOption({ label: 'Revoked' })
    await row.filter({ hasText: 'Revoked' }).waitFor()

    // the audit log names what was done to the key, newest first
    const audit = page.getByRole('region', { name: 'Audit log, scrollable table' })
    const events = await audit.getByRole('row').filter({ hasText: name }).allTextContents()
    // (its sampled uses, "Used", may be among them)
    const named = events.map((text) => ['Revoked', 'New secret', 'Created'].find((event) => text.includes(event))).filter(Boolean)
    expect(named).toEqual(['Revoked', 'New secret', 'Created'])
  }, 120_000)

  test("behavior: an agent is created with an icon and its first key, shown once; disabling it stops its keys and enabling restarts them; a second key is listed among its keys; deleting it says how many keys were revoked", async () => {
    const name = `Agent ${randomUUID().slice(0, 8)}`
    await open('Agents', 'Agents')
    await accessibleAtEveryWidth(page, 'agents', 'dashboard-')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Icon').selectOption({ label: 'Terminal' })
    await page.getByRole('checkbox', { name: /^invoice:read:/ }).check()
    await page.getByRole('button', { name: 'Create agent' }).click()
    const secretPanel = page.getByRole('region', { name: `Secret of ${name}` })
    await secretPanel.waitFor()
    const first = { keyId: (await secretPanel.locator('[data-key-id]').textContent())!, secret: (await secretPanel.locator('[data-secret]').textContent())! }
    const reads = (key: { keyId: string; secret: string }) => call('GET', '/v1/invoices', key, undefined, 'limit=1').then((answer) => answer.status)
    expect(await reads(first)).toBe(200)
    const agents = page.getByRole('region', { name: 'Agents, scrollable table' })
    const row = agents.getByRole('row').filter({ hasText: name })
    await row.getByRole('cell', { name: 'Terminal' }).waitFor()

    await row.getByRole('button', { name: `Disable ${name}` }).click()
    await page.getByRole('status').filter({ hasText: `${name} disabled` }).waitFor()
    expect(await reads(first)).toBe(403)
    await row.getByRole('button', { name: `Enable ${name}` }).click()
    await page.getByRole('status').filter({ hasText: `${name} enabled` }).waitFor()
    expect(await reads(first)).toBe(200)

    // its keys, and another made for it
    await row.getByRole('button', { name: `Keys of ${name}` }).click()
    const keys = page.getByRole('region', { name: `Keys of ${name}, scrollable table` })
    await keys.getByRole('cell', { name: first.keyId }).waitFor()
    await page.getByRole('checkbox', { name: /^customer:read:/ }).first().check()
    await page.getByRole('button', { name: `New key for ${name}` }).click()
    await expect.poll(() => keys.locator('tbody tr').count()).toBe(2)
    const second = { keyId: (await secretPanel.locator('[data-key-id]').textContent())!, secret: (await secretPanel.locator('[data-secret]').textContent())! }
    expect(second.keyId).not.toBe(first.keyId)
    await accessibleAtEveryWidth(page, 'agent-keys', 'dashboard-')

    page.once('dialog', (dialog) => void dialog.accept())
    await row.getByRole('button', { name: `Delete ${name}` }).click()
    await page.getByRole('status').filter({ hasText: `${name} deleted; 2 keys were revoked.` }).waitFor()
    expect(await reads(first)).toBe(401)
    expect((await call('GET', '/v1/customers', second, undefined, 'limit=1')).status).toBe(401)
  }, 120_000)

  test('behavior: a webhook endpoint added on the page receives a signed invoice.canceled delivery at a loopback receiver, then is deleted', async () => {
    const receiver = await startWebhookReceiver()
    try {
      const url = `${receiver.url}/hooks/${randomUUID().slice(0, 8)}`
      await open('Webhooks', 'Webhooks')
      await accessibleAtEveryWidth(page, 'webhooks', 'dashboard-')
      await page.getByLabel('Endpoint URL').fill(url)
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      const secretPanel = page.getByRole('region', { name: `Signing secret of ${url}` })
      await secretPanel.waitFor()
      const secret = (await secretPanel.locator('[data-secret]').textContent())!
      expect(secret).toMatch(/^whsec_/)
      await page.getByRole('row').filter({ hasText: url }).filter({ hasText: 'Delivering' }).waitFor()

      // an invoice of this file's own, issued and canceled by the merchant's backend
      const customer = await call('POST', '/v1/customers', undefined, {
        type: 'person',
        legalName: `Webhook Person ${randomUUID().slice(0, 8)}`,
        email: 'webhooks@customer.example',
        address: { street: 'Hauptstraße 2', city: 'Berlin', postal: '10115', country: 'DE' },
      })
      expect(customer.status).toBe(201)
      const issued = await signedRequest(checkout.devnet.file.serverUrl, checkout.devnet.file.merchant.apiKey, {
        method: 'POST',
        path: '/v1/invoices/issue',
        body: JSON.stringify({ customerId: customer.body.data.id, amount: '2000000', dueDays: 7, description: 'Webhook test', sendEmail: false }),
        send: { headers: { 'idempotency-key': randomUUID() } },
      })
      expect(issued.status).toBe(200)
      expect((await call('POST', `/v1/invoices/${issued.body.id}/cancel/submit`, undefined, {})).status).toBe(200)

      // the receiver gets it, signed with the secret the page showed once
      const path = new URL(url).pathname
      await expect
        .poll(() => receiver.at(path).map((request) => verified(secret, request)).filter((event) => event.data?.invoiceId === String(issued.body.id) || event.data?.id === String(issued.body.id)).map((event) => event.type), { timeout: 30_000 })
        .toContain('invoice.canceled')

      // deleted, confirmed: gone from the list
      page.once('dialog', (dialog) => void dialog.accept())
      await page.getByRole('button', { name: `Delete ${url}` }).click()
      await page.getByRole('status').filter({ hasText: `Endpoint ${url} deleted.` }).waitFor()
      await expect.poll(() => page.getByRole('row').filter({ hasText: url }).count()).toBe(0)
    } finally {
      await receiver.close()
    }
  }, 120_000)

  test('behavior: the customers list pages forward and back by the API cursor', async () => {
    const total = (await call('GET', '/v1/customers', undefined, undefined, 'limit=1')).body.meta.total as number
    const tag = randomUUID().slice(0, 8)
    for (let index = total; index < 22; index++) {
      const created = await call('POST', '/v1/customers', undefined, {
        type: 'person',
        legalName: `Paged Customer ${tag} ${index}`,
        email: `paged-${index}@customer.example`,
        address: { street: 'Weg 1', city: 'Köln', postal: '50667', country: 'DE' },
      })
      expect(created.status).toBe(201)
    }
    await open('Customers', 'Customers')
    const rows = page.getByRole('region', { name: 'Customers, scrollable table' }).locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(20)
    const firstPage = await rows.allTextContents()
    const pages = page.getByRole('navigation', { name: 'Customers' })
    await pages.getByRole('button', { name: 'Next page' }).click()
    await pages.getByText('Page 2').waitFor()
    await expect.poll(async () => (await rows.allTextContents())[0]).not.toBe(firstPage[0])
    const secondPage = await rows.allTextContents()
    expect(secondPage.filter((row) => firstPage.includes(row))).toEqual([])
    await accessibleAtEveryWidth(page, 'customers-page-2', 'dashboard-')
    await pages.getByRole('button', { name: 'Previous page' }).click()
    await pages.getByText('Page 1').waitFor()
    await expect.poll(() => rows.allTextContents()).toEqual(firstPage)
  }, 120_000)

  test("behavior: a CLI signed in through the browser is listed among the connected apps with its scopes, and once revoked its token is refused", async () => {
    const { serverUrl } = checkout.devnet.file
    const credentialsPath = join(await mkdtemp(join(tmpdir(), 'dashboard-cli-')), 'credentials.json')
    let authorizeAt: (url: string) => void = () => {}
    const shown = new Promise<string>((resolve) => (authorizeAt = resolve))
    const signingIn = login({ serverUrl, credentialsPath, showUrl: authorizeAt })
    const cli = await page.context().newPage()
    await cli.goto(await shown)
    await throughSignIn(cli, checkout.devnet.file.merchant.login!, async () => new URL(cli.url()).pathname === '/callback')
    const signedIn = await signingIn
    await cli.close()
    expect((await fetch(`${serverUrl}/v1/customers?limit=1`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } })).status).toBe(200)

    await open('Connected apps', 'Connected apps')
    const rows = page.getByRole('row').filter({ hasText: 'svc-checkout CLI' })
    await rows.first().waitFor()
    await accessibleAtEveryWidth(page, 'connections', 'dashboard-')
    // connections are listed oldest first: this file's sign-in, the newest, is last
    const mine = rows.last()
    expect(await mine.textContent()).toContain('customer:read')
    page.once('dialog', (dialog) => void dialog.accept())
    await mine.getByRole('button', { name: 'Revoke svc-checkout CLI' }).click()
    await page.getByRole('status').filter({ hasText: 'svc-checkout CLI revoked.' }).waitFor()
    expect((await fetch(`${serverUrl}/v1/customers?limit=1`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } })).status).toBe(401)
  }, 120_000)

  test('behavior: the branding page previews the pay page colours with their contrast, and saves the colour', async () => {
    // the worker's other files see the demo studio's pay page: what it had is put back at the end
    const before = (await call('GET', '/v1/studios/me/branding')).body.branding as { brandColor: string } | null
    await open('Branding', 'Branding')
    await page.getByLabel('Brand colour (#RRGGBB)').fill('#ffd400')
    await page.getByText('Text on your colour is black: contrast').waitFor()
    await page.getByText('buttons get a darker edge').waitFor()
    await page.getByLabel('Brand colour (#RRGGBB)').fill('#1d4ed8')
    await page.getByText(/Text on your colour is white: contrast \d+\.\d\d:1\. Passes WCAG AA/).waitFor()
    await accessibleAtEveryWidth(page, 'branding', 'dashboard-')
    await page.getByRole('button', { name: 'Save branding' }).click()
    await page.getByRole('status').filter({ hasText: 'Branding saved.' }).waitFor()
    const stored = await call('GET', '/v1/studios/me/branding')
    expect(stored.body.branding.brandColor).toBe('#1d4ed8')
    if (before) {
      await page.getByLabel('Brand colour (#RRGGBB)').fill(before.brandColor)
      await page.getByRole('button', { name: 'Save branding' }).click()
      await expect.poll(async () => (await call('GET', '/v1/studios/me/branding')).body.branding.brandColor).toBe(before.brandColor)
    } else {
      await page.getByRole('button', { name: 'Remove branding' }).click()
      await page.getByRole('status').filter({ hasText: 'Branding removed.' }).waitFor()
      expect((await call('GET', '/v1/studios/me/branding')).body.branding).toBeNull()
    }
  }, 60_000)
})
