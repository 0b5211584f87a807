import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, test } from 'vitest'
import { writeDevnetFile } from '../../devnet/devnetFile'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { AgentOAuth } from '../support/agentOAuth'
import { bundledCli } from '../support/cliBundle'
import { runCli } from '../support/runCli'
import { signedRequest } from '../support/signedRequest'
import { useCheckoutInBrowser } from './support/checkoutInBrowser'
import { throughSignIn } from './support/throughSignIn'

/**
 * The two OAuth doors of SPEC 5.3 and 5.4 with a person in Debian's chromium, against what `npm start`
 * runs: the CLI's `login` prints its URL, the demo merchant signs in through the identity provider's
 * real form and consents on the authorization server's page (studio, network, scopes), and every
 * merchant command then runs as an operator types it; an MCP client of the official SDK finds the
 * authorization server from the 401, registers, and is consented to in the browser with limits, then
 * reads, issues within its limits, is refused over them, is in the audit log by name, and is refused
 * once the owner revokes it.
 */

const checkout = useCheckoutInBrowser()
const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  dirs.push(dir)
  return dir
}

/** The person's part in chromium: the identity provider's sign-in (and its own consent, where it
 * asks), then this server's consent page, choosing the studio and network and ticking `writes`. */
async function signInAndConsent(page: Page, writes: readonly string[], limits: { maxInvoice?: string; perDay?: string } = {}) {
  const { merchant, chainId } = checkout.devnet.file
  await page.getByLabel('Email').fill(merchant.login!.email)
  await page.getByLabel('Password').fill(merchant.login!.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  const studio = page.getByLabel('Studio', { exact: true })
  // the identity provider may ask its own consent first: its page has an Allow and no studio to pick
  await Promise.race([studio.waitFor(), page.getByRole('button', { name: 'Allow' }).waitFor()])
  if (!(await studio.isVisible())) {
    await page.getByRole('button', { name: 'Allow' }).click()
    await studio.waitFor()
  }
  // one studio of the merchant's and one network of the deployment's, chosen rather than assumed
  await studio.selectOption({ value: merchant.studioId })
  await page.getByLabel('Network', { exact: true }).selectOption(String(chainId))
  for (const scope of writes) await page.getByRole('checkbox', { name: new RegExp(scope) }).check()
  if (limits.maxInvoice) await page.getByLabel(/Largest invoice/).fill(limits.maxInvoice)
  if (limits.perDay) await page.getByLabel(/Invoices in any 24 hours/).fill(limits.perDay)
  await page.getByRole('button', { name: 'Allow' }).click()
}

describe("the CLI's sign-in in chromium", () => {
  test('behavior: login prints the URL, the merchant signs in and consents in chromium, and every command then runs with the sign-in, reads also as JSON', { timeout: 180_000 }, async () => {
    const devnetDir = tempDir('svc-cli-devnet-')
    writeDevnetFile(devnetDir, checkout.devnet.file)
    const env = { SVC_DEVNET_DIR: devnetDir, SVC_CONFIG_DIR: tempDir('svc-cli-config-') }
    const cli = (...args: string[]) => runCli('cli/merchant.ts', args, env)

    // headless: login prints the address instead of opening a browser, and waits for the redirect
    const login = spawn(process.execPath, [await bundledCli('cli/merchant.ts'), 'login', '--no-browser'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let printed = ''
    login.stdout.on('data', (chunk) => (printed += chunk))
    login.stderr.on('data', (chunk) => (printed += chunk))
    const exited = new Promise<number | null>((resolve) => login.once('exit', resolve))
    await expect.poll(() => /https?:\/\/\S+\/oauth\/auth\?\S+/.exec(printed)?.[0], { timeout: 20_000 }).toBeTruthy()
    const url = /https?:\/\/\S+\/oauth\/auth\?\S+/.exec(printed)![0]
    expect(new URL(url).searchParams.get('code_challenge_method')).toBe('S256')

    const context = await checkout.browser.newContext()
    const page = await context.newPage()
    await page.goto(url)
    await signInAndConsent(page, ['invoice:write', 'customer:write'])
    // back at the CLI's loopback listener
    await expect.poll(() => page.textContent('body')).toContain('Signed in: you can close this tab')
    expect(await exited).toBe(0)
    expect(printed).toMatch(/signed in to http:\/\/127\.0\.0\.1:\d+ with .*invoice:write/)
    await context.close()

    const { merchant, chainId } = checkout.devnet.file
    const who = await cli('whoami')
    expect(who.stdout).toContain(`user     ${merchant.login!.email}`)
    expect(who.stdout).toContain(`(${merchant.studioId})`)
    expect(who.stdout).toContain(`network  chain ${chainId}`)
    expect(who.stdout).toMatch(/^scopes   .*invoice:write/m)
    expect(JSON.parse((await cli('whoami', '--json')).stdout)).toMatchObject({ user: { email: merchant.login!.email }, studio: { id: merchant.studioId }, network: { chain_id: chainId }, client: { name: 'svc-checkout CLI' } })

    const name = `Chromium CLI Ltd ${Date.now()}`
    const created = await cli('customers', 'create', '--name', name, '--email', 'ops@chromium-cli.example', '--street', '3 Mill Lane', '--city', 'York', '--postal', 'YO1 7HH', '--country', 'GB', '--registration', '09876543')
    expect(created, created.stderr).toMatchObject({ code: 0 })
    const customerId = /^customer ([0-9a-f-]{36}) /.exec(created.stdout)![1]!
    const listed = JSON.parse((await cli('customers', 'list', '--search', name, '--json')).stdout)
    expect(listed.data.map((customer: { id: string }) => customer.id)).toEqual([customerId])

    const issued = await cli('invoices', 'issue', '--customer', customerId, '--amount', '18.75', '--due-days', '5')
    expect(issued, issued.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^invoice \d+ \(number \d+\) Issued, due \d{4}-\d{2}-\d{2}\nshare link http/) })
    const id = /^invoice (\d+)/.exec(issued.stdout)![1]!
    expect((await cli('invoices', 'get', '--invoice', id)).stdout).toContain(`customer ${name} <ops@chromium-cli.example>`)
    expect(JSON.parse((await cli('invoices', 'get', '--invoice', id, '--json')).stdout).data).toMatchObject({ id, amount: '18750000', status: 'Issued' })
    await expect.poll(async () => (await cli('invoices', 'list')).stdout, { timeout: 10_000, interval: 250 }).toMatch(new RegExp(`^ *${id}  .* 18\\.75 \\w+  Issued$`, 'm'))
    expect(JSON.parse((await cli('invoices', 'list', '--json')).stdout).data.items.length).toBeGreaterThan(0)
    expect((await cli('invoices', 'share', '--invoice', id)).stdout.trim()).toMatch(new RegExp(`/pay/${id}\\?token=svc_tk_`))
    expect(await cli('invoices', 'cancel', '--invoice', id)).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^invoice ${id} Canceled \\(transaction 0x[0-9a-f]{64}\\)`)) })
    expect(JSON.parse((await cli('payments', 'list', '--json')).stdout).data.payments).toEqual(expect.any(Array))
    expect((await cli('payments', 'export', '--from', '2020-01-01', '--to', '2020-12-31')).stdout).toMatch(/^date,/)

    // a refusal in the operator's words: status, code, what to do; a typo is the usage (exit 2)
    expect(await cli('invoices', 'get', '--invoice', '99999999')).toMatchObject({ code: 1, stderr: expect.stringMatching(/^404 NOT_FOUND: .*\n {2}what to do: check the id/) })
    expect(await cli('invoices', 'get')).toMatchObject({ code: 2, stderr: expect.stringContaining('--invoice: missing') })
    expect(await cli('logout')).toMatchObject({ code: 0, stdout: expect.stringContaining('signed out') })
  })
})

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content.map((part) => part.text)

describe('an MCP agent consented to in chromium', () => {
  test('behavior: discovery from the 401, registration and PKCE by the SDK, consent in chromium with limits; it reads, issues within them (replayed by its key), is refused over them, is audited by name, and is refused once revoked', { timeout: 120_000 }, async () => {
    const { serverUrl, merchant, identity } = checkout.devnet.file
    // the agent's loopback listener, as a desktop agent has: where the browser brings the code back
    let back: string | undefined
    const listener = createServer((request, response) => {
      back = new URL(request.url ?? '/', 'http://127.0.0.1').toString()
      response.writeHead(200, { 'content-type': 'text/plain' }).end('back at the agent')
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const redirectUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/agent/callback`
    const oauth = new AgentOAuth(redirectUrl, 'Chromium agent')
    const endpoint = new URL('/mcp', serverUrl)
    const refusal = await new Client({ name: 'chromium-agent', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth })).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(UnauthorizedError)
    expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(endpoint.toString())

    const context = await checkout.browser.newContext()
    const page = await context.newPage()
    await page.goto(oauth.authorizationUrl!.toString())
    // the merchant types the largest invoice in USDC: 20, which the agent meets as 20000000 base units
    await signInAndConsent(page, ['invoice:write'], { maxInvoice: '20', perDay: '1' })
    // until the code is back, what the browser shows instead: a refusal at consent reads in the failure
    await expect.poll(async () => back ?? `${page.url()} shows: ${(await page.textContent('body').catch(() => ''))?.slice(0, 400)}`).toContain('code=')
    expect(await page.textContent('body')).toBe('back at the agent')
    await context.close()
    listener.close()
    await new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }).finishAuth(new URL(back!).searchParams.get('code')!)
    const client = new Client({ name: 'chromium-agent', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth }))

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['invoices_list', 'invoice_issue', 'customers_list']))
    const customers = await client.callTool({ name: 'customers_list', arguments: {} })
    const acme = JSON.parse(textOf(customers)[0]!).data.find((customer: { legalName: string }) => customer.legalName === 'Acme Robotics GmbH')
    expect(textOf(customers)[1]).toMatch(/^listed \d+ customers$/)
    // customer:write was left unticked: refused
    const write = await client.callTool({ name: 'customer_create', arguments: { type: 'person', legal_name: 'No Consent', email: 'no@example.com', address: { street: '1 Way', city: 'York', postal: 'YO1', country: 'GB' } } })
    expect(write.isError).toBe(true)
    expect(JSON.parse(textOf(write)[0]!).code).toBe('FORBIDDEN')

    const key = `chromium-${Date.now()}`
    const issue = (idempotencyKey: string, amount: string) => client.callTool({ name: 'invoice_issue', arguments: { idempotency_key: idempotencyKey, customer_id: acme.id, amount, due_days: 7 } })
    const first = await issue(key, '20000000')
    const invoice = JSON.parse(textOf(first)[0]!)
    expect(invoice).toMatchObject({ amount: '20000000', status: 'Issued' })
    expect(JSON.parse(textOf(await issue(key, '20000000'))[0]!)).toMatchObject({ id: invoice.id, idempotency: { replayed: true } })
    const over = await issue(`${key}-over`, '20000001')
    expect(over.isError).toBe(true)
    // one base unit over: refused, naming both amounts in USDC
    expect(JSON.parse(textOf(over)[0]!)).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the amount, 20.000001 USDC, is above the largest invoice approved at consent, 20 USDC: issue a smaller invoice, or reconnect with a higher limit' })
    const secondToday = await issue(`${key}-second`, '1000000')
    expect(JSON.parse(textOf(secondToday)[0]!)).toMatchObject({ code: 'LIMIT_EXCEEDED' })

    // the owner, signed in as the dashboard is, sees the write under the agent's name and revokes it
    const owner = (await signInWithPassword({ issuer: identity!.issuer, clientId: identity!.clientId, redirectUri: identity!.redirectUri, email: merchant.login!.email, password: merchant.login!.password, resource: identity!.audience })).accessToken
    const asOwner = { headers: { authorization: `Bearer ${owner}` } }
    const audit = (await (await fetch(`${serverUrl}/v1/studios/${merchant.studioId}/api-keys/audit-log?limit=100`, asOwner)).json()) as { events: { event: string; key_id: string; client_name: string; summary: string }[] }
    expect(audit.events.filter((event) => event.key_id === oauth.information!.client_id).map((event) => [event.event, event.client_name, event.summary])).toEqual([
      ['agent_write', 'Chromium agent', textOf(first)[1]],
    ])
    const connections = (await (await fetch(`${serverUrl}/v1/studios/${merchant.studioId}/oauth-connections`, asOwner)).json()) as { connections: { id: string; client_name: string; limits: unknown }[] }
    const mine = connections.connections.filter((connection) => connection.client_name === 'Chromium agent' && JSON.stringify(connection.limits) === JSON.stringify({ max_invoice: '20000000', invoices_per_day: 1 }))
    expect(mine.length).toBeGreaterThan(0)
    // the owner reads that limit in the dashboard's connected apps as typed at consent, in USDC
    const dashboard = await (await checkout.browser.newContext()).newPage()
    await dashboard.goto(checkout.devnet.file.dashboardUrl!)
    await dashboard.getByRole('button', { name: 'Sign in' }).click()
    const invoicesHeading = dashboard.getByRole('heading', { level: 1, name: 'Invoices' })
    await throughSignIn(dashboard, merchant.login!, () => invoicesHeading.isVisible())
    await dashboard.getByRole('link', { name: 'Connected apps', exact: true }).click()
    await dashboard.getByRole('row').filter({ hasText: 'Chromium agent' }).filter({ hasText: 'Invoices up to 20.00 USDC, 1 a day' }).first().waitFor()
    await dashboard.context().close()

    // its token is no REST credential, and the studio's API key is no MCP one
    expect((await fetch(`${serverUrl}/v1/invoices`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })).status).toBe(401)
    expect((await signedRequest(serverUrl, merchant.apiKey, { method: 'POST', path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } as never)).status).toBe(401)

    for (const connection of mine) expect((await fetch(`${serverUrl}/v1/studios/${merchant.studioId}/oauth-connections/${connection.id}`, { method: 'DELETE', ...asOwner })).status).toBe(200)
    await expect(client.listTools()).rejects.toThrow()
  })
})
