import { mkdtemp, readFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { describe, expect, test } from 'vitest'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { demoMerchantUser, devnetApiAudience } from '../../devnet/seedMerchantLogin'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { login } from '../../cli/oauth/oauthLogin'
import { currentCredentials, logout, whoami } from '../../cli/oauth/oauthSession'
import { runMerchantCommand } from '../../cli/merchantCommand'
import { cliOAuthToken, cliOAuthTokens } from '../support/cliOAuthToken'
import { createOperationQuota } from '../../server/merchant/signer/operationQuota'
import { signedRequest } from '../support/signedRequest'
import { useOAuthServer } from '../support/oauthServer'
import { signInWithPassword } from '../../devnet/passwordSignIn'

let clockOffset = 0
const ctx = useOAuthServer({ now: () => Date.now() + clockOffset })
const { browseToRedirect, connectAgent } = ctx

const reads = ['invoice:read', 'customer:read', 'dashboard:read']
const writes = ['invoice:write', 'customer:write']
const textOf = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0]!.text)

describe('the hosted MCP endpoint', () => {
  test('answers 401 naming its protected-resource metadata, which names the authorization server and its S256 metadata', async () => {
    const answer = await fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(answer.status).toBe(401)
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(answer.headers.get('www-authenticate') ?? '')?.[1]
    const resource = (await (await fetch(metadataUrl!)).json()) as { resource: string; authorization_servers: string[] }
    expect(resource.resource).toBe(`${ctx.server.url}/mcp`)
    const issuer = new URL(resource.authorization_servers[0]!)
    const metadata = (await (await fetch(`${issuer.origin}/.well-known/oauth-authorization-server${issuer.pathname}`)).json()) as Record<string, unknown>
    expect(metadata).toMatchObject({ issuer: issuer.toString().replace(/\/$/, ''), code_challenge_methods_supported: ['S256'], registration_endpoint: expect.any(String) })
  })

  test('refuses an API key signed with HMAC', async () => {
    const answer = await signedRequest(ctx.server.url, ctx.oauth.apiKey, { method: 'POST', path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } as never)
    expect(answer.status).toBe(401)
  })

  test('a read-only connection lists the tools and reads, and its write is refused without the write scope', async () => {
    const { client, oauth } = await connectAgent(reads)
    expect(oauth.saved?.access_token).toMatch(/^svc_oat_/)
    expect(oauth.saved?.expires_in).toBe(900)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['invoices_list', 'invoice_get', 'invoice_lookup', 'invoice_issue', 'invoice_cancel', 'invoice_share_link', 'customers_list', 'customer_create', 'payments_list', 'balance']))
    const customers = textOf(await client.callTool({ name: 'customers_list', arguments: {} }))
    expect(customers.data.map((customer: { legalName: string }) => customer.legalName)).toContain('Acme Robotics GmbH')
    const summed = await client.callTool({ name: 'payments_export', arguments: { from: '2020-01-01', to: '2020-12-31' } })
    expect(textOf(summed)).toEqual({ dateRange: expect.objectContaining({ from: expect.any(String), to: expect.any(String) }), summary: expect.objectContaining({ totalPayments: 0, totalAmountBaseUnits: '0' }) })
    expect((summed.content as { text: string }[])[1]?.text).toBe('summed 0 payments received from 2020-01-01 to 2020-12-31')
    const reversed = await client.callTool({ name: 'payments_export', arguments: { from: '2020-12-31', to: '2020-01-01' } })
    expect(textOf(reversed)).toMatchObject({ code: 'VALIDATION_ERROR' })
    const refused = await client.callTool({ name: 'customer_create', arguments: { type: 'entity', legal_name: 'Refused GmbH', email: 'refused@example.com', address: { street: '1 Way', city: 'Berlin', postal: '10115', country: 'DE' } } })
    expect(refused.isError).toBe(true)
    expect(textOf(refused).code).toBe('FORBIDDEN')
    await client.close()
  })

  test('a connection with writes approved issues one invoice, replayed by its idempotency_key; its token opens no REST route', async () => {
    const { client, oauth } = await connectAgent([...reads, ...writes])
    const creation = await client.callTool({ name: 'customer_create', arguments: { type: 'entity', legal_name: `Agent Customer ${Date.now()}`, email: 'agent@example.com', registration_number: 'HRB 42', address: { street: '1 Agent Way', city: 'Berlin', postal: '10115', country: 'DE' } } })
    expect(creation.isError, JSON.stringify(creation)).toBeFalsy()
    const created = textOf(creation)
    expect(created.data.registrationNumber).toBe('HRB 42')
    const issue = { idempotency_key: `agent-${Date.now()}`, customer_id: created.data.id, amount: '12500000', due_days: 14 }
    const first = textOf(await client.callTool({ name: 'invoice_issue', arguments: issue }))
    const again = textOf(await client.callTool({ name: 'invoice_issue', arguments: issue }))
    expect(first).toMatchObject({ amount: '12500000', status: 'Issued', idempotency: { replayed: false } })
    expect(again).toMatchObject({ id: first.id, txHash: first.txHash, idempotency: { replayed: true } })
    // one invoice, on-chain: its transaction succeeded, and the read tool finds it issued to the customer
    expect((await ctx.devnet.clients.public.getTransactionReceipt({ hash: first.txHash })).status).toBe('success')
    const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(first.id)] })
    expect(onChain.amount).toBe(12_500_000n)
    const read = textOf(await client.callTool({ name: 'invoice_get', arguments: { id: first.id } }))
    expect(JSON.stringify(read)).toContain('"status":"Issued"')
    expect(JSON.stringify(read)).toContain('12500000')
    const rest = await fetch(`${ctx.server.url}/v1/invoices`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })
    expect(rest.status).toBe(401)
    await client.close()
  })

  test('a write within the limits set at consent is issued; one over the largest invoice, or past the day\'s count, is refused', async () => {
    // the merchant types 20 USDC; the agent's amounts are base units, six decimals for USDC
    const { client, oauth } = await connectAgent([...reads, ...writes], { max_invoice: '20', invoices_per_day: '1' })
    const customer = (await ctx.server.stores.customers.findCustomerByName(ctx.oauth.studioId, 'Acme Robotics GmbH'))!
    const issue = (key: string, amount: string) => client.callTool({ name: 'invoice_issue', arguments: { idempotency_key: key, customer_id: customer.id, amount, due_days: 7 } })
    // one base unit above 20 USDC: refused in the amounts the merchant chose
    const over = await issue(`over-${Date.now()}`, '20000001')
    expect(over.isError).toBe(true)
    expect(textOf(over)).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the amount, 20.000001 USDC, is above the largest invoice approved at consent, 20 USDC: issue a smaller invoice, or reconnect with a higher limit' })
    // who the token stands for says the limit in base units and as typed
    const info = (await (await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })).json()) as { limits: unknown }
    expect(info.limits).toEqual({ max_invoice: '20000000', max_invoice_display: '20 USDC', invoices_per_day: 1 })
    const key = `within-${Date.now()}`
    const within = textOf(await issue(key, '20000000'))
    expect(within).toMatchObject({ amount: '20000000', status: 'Issued' })
    expect(textOf(await issue(key, '20000000'))).toMatchObject({ id: within.id, idempotency: { replayed: true } })
    const second = await issue(`second-${Date.now()}`, '1000000')
    expect(second.isError).toBe(true)
    expect(textOf(second)).toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringContaining('1 invoices a day') })
    await client.close()
  })

  test('a largest invoice that is not an amount of USDC is refused at consent in the merchant\'s words, and nothing is granted', async () => {
    // more decimals than USDC has, zero, a sign, an absurd figure (base units typed out of habit, say)
    for (const typed of ['20.0000001', '0', '-5', '20000000000000']) {
      await expect(connectAgent([...reads, ...writes], { max_invoice: typed }), typed).rejects.toThrow(
        'The largest invoice is an amount in USDC above 0, such as 1000 or 1000.50, with at most 6 decimals and at most 1,000,000,000 USDC: go back and correct it.',
      )
    }
    // with a comma, as many languages write amounts: 12.5 USDC is the limit
    const { oauth } = await connectAgent([...reads, ...writes], { max_invoice: '12,5', invoices_per_day: '3' })
    const info = (await (await fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })).json()) as { limits: unknown }
    expect(info.limits).toEqual({ max_invoice: '12500000', max_invoice_display: '12.5 USDC', invoices_per_day: 3 })
  })

  test("invoice writes are refused at consent while the studio's server signer is not active; reads are still granted", async () => {
    // the merchant's user moves, for this test, to a studio whose vault no session lets the server sign for
    const user = (await ctx.server.stores.users.findUser(ctx.oauth.provider.issuer, demoMerchantUser.subject))!
    const unsigned = await ctx.server.stores.studios.createStudio({ name: 'Studio without a signer', vaultAddress: privateKeyToAddress(generatePrivateKey()), chainId: ctx.devnet.deployment.chainId })
    await ctx.server.stores.users.makeOwner(user.id, unsigned.id)
    try {
      await expect(connectAgent([...reads, ...writes])).rejects.toThrow(/Server signer not active/)
      const { client } = await connectAgent(reads)
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      await client.close()
    } finally {
      await ctx.server.stores.users.makeOwner(user.id, ctx.oauth.studioId)
    }
  })

  test('a refresh token rotates; using the old one again revokes the grant', async () => {
    const { client, oauth } = await connectAgent(reads)
    await client.close()
    const token = `${ctx.server.url}/oauth/token`
    const refresh = (refreshToken: string) =>
      fetch(token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: oauth.information!.client_id }) })
    const old = oauth.saved!.refresh_token!
    const rotated = (await (await refresh(old)).json()) as OAuthTokens
    expect(rotated.refresh_token).toBeTruthy()
    expect(rotated.refresh_token).not.toBe(old)
    const reuse = await refresh(old)
    expect(reuse.status).toBe(400)
    expect((await refresh(rotated.refresh_token!)).status).toBe(400)
    const call = await fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${rotated.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(call.status).toBe(401)
  })

  test("a user who no longer belongs to the grant's studio is refused on the next call", async () => {
    const { client, oauth } = await connectAgent(reads)
    await client.close()
    const call = () => fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${oauth.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'customers_list', arguments: {} } }) })
    expect((await call()).status).toBe(200)
    const user = (await ctx.server.stores.users.findUser(ctx.oauth.provider.issuer, demoMerchantUser.subject))!
    await ctx.server.stores.db.query('DELETE FROM studio_memberships WHERE user_id = $1', [user.id])
    try {
      expect((await call()).status).toBe(401)
    } finally {
      await ctx.server.stores.users.makeOwner(user.id, user.studioId!)
    }
    expect((await call()).status).toBe(200)
  })

  test('an access token is refused once 15 minutes have passed on the server clock', async () => {
    const { client, oauth } = await connectAgent(reads)
    await client.close()
    const list = () => fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${oauth.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect((await list()).status).toBe(200)
    clockOffset = 15 * 60_000 + 1_000
    try {
      expect((await list()).status).toBe(401)
    } finally {
      clockOffset = 0
    }
  })
})

/** What `svc login` does (test/support/cliOAuthToken.ts): it asks for every scope, the person ticks `approve`. */
const cliSignIn = async (approve: readonly string[]) => ({ access_token: await cliOAuthToken({ serverUrl: ctx.server.url, user: demoMerchantUser, approve, ask: [...reads, ...writes] }) })

describe('a CLI OAuth token on the REST routes (SPEC 5.6)', () => {
  const rest = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${ctx.server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } })

  test('reads invoices, customers and the studio with the scopes granted, and is refused a write it was not granted', async () => {
    const tokens = await cliSignIn(reads)
    expect(tokens.access_token).toMatch(/^svc_oat_/)
    expect((await rest(tokens.access_token, '/v1/invoices')).status).toBe(200)
    const customers = (await (await rest(tokens.access_token, '/v1/customers')).json()) as { data: { legalName: string }[] }
    expect(customers.data.map((customer) => customer.legalName)).toContain('Acme Robotics GmbH')
    const studio = await rest(tokens.access_token, '/v1/studios/me')
    expect(studio.status).toBe(200)
    const write = await rest(tokens.access_token, '/v1/customers', { method: 'POST', body: JSON.stringify({ type: 'entity', legalName: 'Refused CLI GmbH', email: 'cli@example.com', address: { street: '1 Way', city: 'Berlin', postal: '10115', country: 'DE' } }) })
    expect(write.status).toBe(403)
    expect(await write.json()).toMatchObject({ code: 'FORBIDDEN' })
  })

  test('is refused where the matrix has no OAuth: payments, key management, browser prepare; and at /mcp', async () => {
    const tokens = await cliSignIn([...reads, ...writes])
    expect((await rest(tokens.access_token, '/v1/payments')).status).toBe(403)
    const studio = (await (await rest(tokens.access_token, '/v1/studios/me')).json()) as { data: { id: string } }
    expect((await rest(tokens.access_token, `/v1/studios/${studio.data.id}/api-keys`)).status).toBe(403)
    expect((await rest(tokens.access_token, '/v1/invoices/prepare', { method: 'POST', body: '{}' })).status).toBe(403)
    const mcp = await fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect(mcp.status).toBe(401)
  })

  test("is held to the limits set at consent: 20 USDC is issued, 20.000001 USDC and a second invoice that day are refused with nothing sent to the chain, the first key answers again, and the next day issues", async () => {
    // the person types 20 USDC and 1 a day on the consent page the CLI opens
    const tokens = await cliOAuthTokens({ serverUrl: ctx.server.url, user: demoMerchantUser, approve: [...reads, ...writes], typed: { max_invoice: '20', invoices_per_day: '1' } })
    const created = await rest(tokens.access_token, '/v1/customers', { method: 'POST', body: JSON.stringify({ type: 'entity', legalName: `Limited CLI GmbH ${Date.now()}`, email: 'limited-cli@example.com', registrationNumber: 'HRB 20', address: { street: '2 Limit Way', city: 'Berlin', postal: '10115', country: 'DE' } }) })
    expect(created.status, await created.clone().text()).toBe(201)
    const customerId = ((await created.json()) as { data: { id: string } }).data.id
    const issue = (token: string, key: string, amount: string) =>
      fetch(`${ctx.server.url}/v1/invoices/issue`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ customerId, amount, dueDays: 7 }) })
    const invoiceCount = () => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })
    const quota = createOperationQuota(ctx.server.stores.db, { perDay: 500, perMonth: 10_000 })
    const quotaUsed = async () => (await quota.usage(ctx.oauth.studioId)).used

    const chainBefore = await invoiceCount()
    const quotaBefore = await quotaUsed()
    const over = await issue(tokens.access_token, `cli-over-${Date.now()}`, '20000001')
    expect(over.status).toBe(403)
    expect(await over.json()).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the amount, 20.000001 USDC, is above the largest invoice approved at consent, 20 USDC: issue a smaller invoice, or reconnect with a higher limit' })
    expect(await invoiceCount()).toBe(chainBefore)
    expect(await quotaUsed()).toBe(quotaBefore)

    const firstKey = `cli-within-${Date.now()}`
    const first = await issue(tokens.access_token, firstKey, '20000000')
    expect(first.status).toBe(200)
    const issued = (await first.json()) as { id: string; amount: string; status: string }
    expect(issued).toMatchObject({ amount: '20000000', status: 'Issued', idempotency: { replayed: false } })
    const onChain = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(issued.id)] })
    expect(onChain.amount).toBe(20_000_000n)

    const chainAfterFirst = await invoiceCount()
    const quotaAfterFirst = await quotaUsed()
    const second = await issue(tokens.access_token, `cli-second-${Date.now()}`, '1000000')
    expect(second.status).toBe(403)
    expect(await second.json()).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the 1 invoices a day approved at consent are used: wait, or reconnect with a higher limit' })
    expect(await invoiceCount()).toBe(chainAfterFirst)
    expect(await quotaUsed()).toBe(quotaAfterFirst)

    // the first key is the first invoice, however the day's count stands
    const replay = await issue(tokens.access_token, firstKey, '20000000')
    expect(replay.status).toBe(200)
    expect(await replay.json()).toMatchObject({ id: issued.id, idempotency: { replayed: true } })
    expect(await invoiceCount()).toBe(chainAfterFirst)

    // a day later by the server's clock the access token has expired: the CLI refreshes it, as it
    // does silently, and the grant's day has room again
    clockOffset = 24 * 3600_000 + 60_000
    try {
      const refreshed = await fetch(`${ctx.server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: tokens.client_id }) })
      expect(refreshed.status, await refreshed.clone().text()).toBe(200)
      const { access_token } = (await refreshed.json()) as { access_token: string }
      const nextDay = await issue(access_token, `cli-next-day-${Date.now()}`, '5000000')
      expect(nextDay.status, await nextDay.clone().text()).toBe(200)
      expect(await nextDay.json()).toMatchObject({ amount: '5000000', status: 'Issued' })
      expect(await invoiceCount()).toBe(chainAfterFirst + 1n)
      // and that day's one invoice is used in turn
      expect((await issue(access_token, `cli-next-day-second-${Date.now()}`, '1000000')).status).toBe(403)
      // a retry of the first day's key still answers its invoice, a day on with the day full: never refused, nor counted
      const lateReplay = await issue(access_token, firstKey, '20000000')
      expect(lateReplay.status, await lateReplay.clone().text()).toBe(200)
      expect(await lateReplay.json()).toMatchObject({ id: issued.id, idempotency: { replayed: true } })
      expect(await invoiceCount()).toBe(chainAfterFirst + 1n)
    } finally {
      clockOffset = 0
    }
  })
  test('the table behind the authorization server holds no working token: neither an access token nor a refresh token appears in it, and both still work', async () => {
    const tokens = await cliOAuthTokens({ serverUrl: ctx.server.url, user: demoMerchantUser, approve: [...reads] })
    const rows = await ctx.server.stores.db.query<{ model: string; id_hash: string; payload: unknown }>('SELECT model, id_hash, payload FROM oauth_payloads')
    const stored = JSON.stringify(rows)
    expect(stored).not.toContain(tokens.access_token)
    expect(stored).not.toContain(tokens.refresh_token!)
    expect((await rest(tokens.access_token, '/v1/studios/me')).status).toBe(200)
    const refreshed = await fetch(`${ctx.server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: tokens.client_id }) })
    expect(refreshed.status, await refreshed.clone().text()).toBe(200)
  })

  test("issues sent at once with different keys cannot share the day's last place: with 1 a day, exactly one of three is issued, and a refusal before anything was sent gives its place back", async () => {
    const tokens = await cliOAuthTokens({ serverUrl: ctx.server.url, user: demoMerchantUser, approve: [...reads, ...writes], typed: { max_invoice: '20', invoices_per_day: '1' } })
    const created = await rest(tokens.access_token, '/v1/customers', { method: 'POST', body: JSON.stringify({ type: 'entity', legalName: `Racing CLI GmbH ${Date.now()}`, email: 'racing-cli@example.com', registrationNumber: 'HRB 21', address: { street: '3 Race Way', city: 'Berlin', postal: '10115', country: 'DE' } }) })
    expect(created.status, await created.clone().text()).toBe(201)
    const customerId = ((await created.json()) as { data: { id: string } }).data.id
    const issue = (key: string, customer: string) =>
      fetch(`${ctx.server.url}/v1/invoices/issue`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ customerId: customer, amount: '1000000', dueDays: 7 }) })
    const invoiceCount = () => ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.registry, abi: invoiceRegistryAbi, functionName: 'invoiceCount' })

    // a customer that does not exist is refused before anything is sent: the day's place is not spent
    const missing = await issue(`cli-missing-${Date.now()}`, crypto.randomUUID())
    expect(missing.status).toBe(404)

    const before = await invoiceCount()
    const answers = await Promise.all([1, 2, 3].map((n) => issue(`cli-race-${n}-${Date.now()}`, customerId)))
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([200, 403, 403])
    for (const refused of answers.filter((answer) => answer.status === 403)) {
      expect(await refused.json()).toMatchObject({ code: 'LIMIT_EXCEEDED', message: 'the 1 invoices a day approved at consent are used: wait, or reconnect with a higher limit' })
    }
    expect(await invoiceCount()).toBe(before + 1n)
  })
})

describe("the CLI's login, whoami and logout", () => {
  test('login signs in through the browser to a loopback redirect and keeps the tokens with mode 0600; whoami refreshes them silently; logout revokes them', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-cli-')), 'svc-checkout', 'credentials.json')
    let browsing: Promise<unknown> = Promise.resolve()
    const beforeSignIn = Date.now()
    const signedIn = await login({
      serverUrl: ctx.server.url,
      credentialsPath: path,
      // the browser: sign in, approve, and follow the redirect to the CLI's loopback listener
      showUrl: (url) => {
        browsing = browseToRedirect(new URL(url), reads, (at) => new URL(at).pathname === '/callback').then((back) => fetch(back))
      },
    })
    await browsing
    expect(signedIn.accessToken).toMatch(/^svc_oat_/)
    expect(signedIn.scope.split(' ').sort()).toEqual([...reads].sort())
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    const lines = await whoami(path)
    // who, where, on which network, with what, until when
    expect(lines).toEqual([
      `user     ${demoMerchantUser.email}`,
      `studio   ${(await ctx.server.stores.studios.getStudio(ctx.oauth.studioId))!.name ?? '(unnamed)'} (${ctx.oauth.studioId}) on ${ctx.server.url}`,
      `network  chain ${ctx.devnet.deployment.chainId} (chain ${ctx.devnet.deployment.chainId})`,
      `scopes   ${reads.join(' ')}`,
      expect.stringMatching(/^expires  \d{4}-\d{2}-\d{2}T[\d:.]+Z \(this access token; refreshed silently/),
    ])
    const info = JSON.parse((await whoami(path, Date.now, { json: true }))[0]!)
    expect(info).toMatchObject({ server: ctx.server.url, user: { email: demoMerchantUser.email }, studio: { id: ctx.oauth.studioId }, network: { chain_id: ctx.devnet.deployment.chainId }, client: { name: 'svc-checkout CLI' }, scopes: reads })
    // fifteen minutes from the token's making, by the server's clock: made after the sign-in began and before now
    expect(Date.parse(info.expires_at)).toBeGreaterThanOrEqual(beforeSignIn + 15 * 60_000 - 1000)
    expect(Date.parse(info.expires_at)).toBeLessThanOrEqual(Date.now() + 15 * 60_000)
    // the merchant commands send the signed-in token instead of a key's signature (this key signs nothing)
    const target = { serverUrl: ctx.server.url, chain: { rpcUrl: ctx.devnet.anvil.rpcUrl, token: ctx.devnet.deployment.token }, apiKey: { keyId: 'svc_pk_unused', secret: 'svc_sk_unused' }, bearer: async () => (await currentCredentials(path)).accessToken }
    expect((await runMerchantCommand(target, ['customer', 'list'])).join('\n')).toContain('Acme Robotics GmbH')
    await expect(runMerchantCommand(target, ['customer', 'create', '--name', 'Read-only Ltd', '--email', 'ro@example.com', '--street', '1 Way', '--city', 'Leeds', '--postal', 'LS1 4AP', '--country', 'GB', '--registration', '123'])).rejects.toThrow(/403 FORBIDDEN/)

    // 16 minutes on, for the CLI and the server alike: the access token has expired, whoami refreshes it
    const later = () => Date.now() + 16 * 60_000
    clockOffset = 16 * 60_000
    try {
      expect((await fetch(`${ctx.server.url}/v1/studios/me`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } })).status).toBe(401)
      const refreshedLines = await whoami(path, later)
      // the same sign-in, user, studio, network and scopes, answered for the refreshed token
      expect(refreshedLines.slice(0, 4)).toEqual(lines.slice(0, 4))
      expect(refreshedLines[4]).toMatch(/^expires  \d{4}-/)
      const refreshed = JSON.parse(await readFile(path, 'utf8')) as { accessToken: string; refreshToken: string }
      expect(refreshed.accessToken).not.toBe(signedIn.accessToken)
      expect(refreshed.refreshToken).not.toBe(signedIn.refreshToken)
      expect((await stat(path)).mode & 0o777).toBe(0o600)

      expect(await logout(path)).toBe(true)
      await expect(stat(path)).rejects.toThrow(/ENOENT/)
      const reuse = await fetch(`${ctx.server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshed.refreshToken, client_id: signedIn.clientId }) })
      expect(reuse.status).toBe(400)
      expect((await fetch(`${ctx.server.url}/v1/studios/me`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } })).status).toBe(401)
    } finally {
      clockOffset = 0
    }
  })
})

describe("the CLI's commands over its sign-in", () => {
  test('every command runs with the OAuth token: customers, invoices from issue to cancel, payments with the key; --json parses; a refresh is silent; its writes are audited', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'svc-cli-')), 'svc-checkout', 'credentials.json')
    let browsing: Promise<unknown> = Promise.resolve()
    await login({
      serverUrl: ctx.server.url,
      credentialsPath: path,
      showUrl: (url) => {
        browsing = browseToRedirect(new URL(url), [...reads, ...writes], (at) => new URL(at).pathname === '/callback').then((back) => fetch(back))
      },
    })
    await browsing
    // the limits the consent page filled in, as whoami tells the operator: in USDC, not base units
    expect(await whoami(path)).toContain('limits   invoices up to 1000 USDC, 20 a day')
    let cliClock = Date.now
    // the studio's own API key is there only for payments, which SPEC 5.6 keeps from OAuth sign-ins
    const target = { serverUrl: ctx.server.url, chain: { rpcUrl: ctx.devnet.anvil.rpcUrl, token: ctx.devnet.deployment.token }, apiKey: ctx.oauth.apiKey, bearer: async () => (await currentCredentials(path, cliClock)).accessToken }
    const run = (...argv: string[]) => runMerchantCommand(target, argv)
    const name = `CLI Customer ${Date.now()}`

    const [created] = await run('customers', 'create', '--name', name, '--email', 'cli@example.com', '--street', '2 Quay', '--city', 'Leeds', '--postal', 'LS1 4AP', '--country', 'GB', '--registration', '0765')
    const customerId = new RegExp(`^customer ([0-9a-f-]{36})  ${name} <cli@example.com>$`).exec(created!)?.[1]
    expect(customerId, created).toBeTruthy()
    const customers = JSON.parse((await run('customers', 'list', '--search', name, '--json'))[0]!)
    expect(customers.data.map((customer: { id: string }) => customer.id)).toEqual([customerId])

    const issued = await run('invoices', 'issue', '--customer', customerId!, '--amount', '42.5', '--due-days', '3', '--description', 'CLI work')
    expect(issued[0]).toMatch(/^invoice \d+ \(number \d+\) Issued, due \d{4}-\d{2}-\d{2}$/)
    const id = /^invoice (\d+)/.exec(issued[0]!)![1]!
    const got = await run('invoices', 'get', '--invoice', id)
    expect(got).toEqual([expect.stringMatching(new RegExp(`^invoice ${id} \\(.+\\) Issued$`)), expect.stringMatching(/^amount   42\.5 \w+$/), `customer ${name} <cli@example.com>`, expect.stringMatching(/^issued   \d{4}-\d{2}-\d{2}, due \d{4}-\d{2}-\d{2}$/)])
    expect(JSON.parse((await run('invoices', 'get', '--invoice', id, '--json'))[0]!).data).toMatchObject({ id, amount: '42500000', status: 'Issued' })
    const [link] = await run('invoices', 'share', '--invoice', id)
    expect(link).toMatch(new RegExp(`/pay/${id}\\?token=svc_tk_`))
    expect(JSON.parse((await run('invoices', 'share', '--invoice', id, '--json'))[0]!)).toBeTruthy()
    await expect.poll(async () => JSON.parse((await run('invoices', 'list', '--json'))[0]!).data.items.map((item: { id: string }) => item.id), { timeout: 10_000, interval: 200 }).toContain(id)

    // 16 minutes on, on both sides: the next command refreshes the token before it is sent
    const before = JSON.parse(await readFile(path, 'utf8')) as { accessToken: string }
    clockOffset = 16 * 60_000
    cliClock = () => Date.now() + 16 * 60_000
    try {
      expect(await run('invoices', 'cancel', '--invoice', id)).toEqual([expect.stringMatching(new RegExp(`^invoice ${id} Canceled \\(transaction 0x[0-9a-f]{64}\\)$`))])
      expect((JSON.parse(await readFile(path, 'utf8')) as { accessToken: string }).accessToken).not.toBe(before.accessToken)
    } finally {
      clockOffset = 0
    }
    expect(JSON.parse((await run('payments', 'list', '--json'))[0]!).data.payments).toEqual(expect.any(Array))
    expect((await run('payments', 'export', '--from', '2020-01-01', '--to', '2020-12-31'))[0]).toMatch(/^date,/)

    // against a server with no devnet here, the sign-in alone: the token's decimals come from the
    // server, and payments, which only an API key reads, are refused with what to do
    const elsewhere = { serverUrl: ctx.server.url, bearer: target.bearer }
    const [elsewhereIssued] = await runMerchantCommand(elsewhere, ['invoices', 'issue', '--customer', customerId!, '--amount', '1.25'])
    const elsewhereId = /^invoice (\d+) /.exec(elsewhereIssued!)![1]!
    expect(JSON.parse((await runMerchantCommand(elsewhere, ['invoices', 'get', '--invoice', elsewhereId, '--json']))[0]!).data.amount).toBe('1250000')
    await expect(runMerchantCommand(elsewhere, ['payments', 'list'])).rejects.toThrow(/^payments are read with an API key: .*\n  what to do: /)

    // refusals say the code, the field and what to do
    await expect(run('invoices', 'get', '--invoice', '999999999')).rejects.toThrow(/^404 NOT_FOUND: .*\n  what to do: check the id/)
    await expect(run('customers', 'create', '--name', `${name} 2`, '--email', 'not-an-email', '--street', 'x', '--city', 'y', '--postal', 'z', '--country', 'GB', '--registration', '1')).rejects.toThrow(/^400 VALIDATION_ERROR: .*body\.email --email: .*\n  what to do: correct the flags/)

    const owner = await ownerToken()
    const events = ((await (await fetch(`${ctx.server.url}/v1/studios/${ctx.oauth.studioId}/api-keys/audit-log?limit=100`, { headers: { authorization: `Bearer ${owner}` } })).json()) as { events: { event: string; client_name: string; summary: string }[] }).events
    const written = events.filter((event) => event.event === 'agent_write' && (event.summary.includes(customerId!) || event.summary.includes(`invoice ${id} `)))
    expect(written.map((event) => [event.client_name, event.summary.split(' ')[0]])).toEqual([
      ['svc-checkout CLI', 'issued'],
      ['svc-checkout CLI', 'canceled'],
      ['svc-checkout CLI', 'issued'],
      ['svc-checkout CLI', 'created'],
    ])
  })
})

describe("the CLI's invoices issue over a sign-in granted invoice:write alone", () => {
  test('learns the decimals of --amount from who the token stands for, not from the balance it may not read, and issues', async () => {
    const { access_token } = await cliSignIn(['invoice:write'])
    const asked = (path: string) => fetch(`${ctx.server.url}${path}`, { headers: { authorization: `Bearer ${access_token}` } })
    // the balance is dashboard:read's, which this sign-in was not granted
    expect((await asked('/v1/studios/me/balance')).status).toBe(403)
    const info = (await (await asked('/oauth/token-info')).json()) as { scopes: string[]; invoice_token: unknown }
    expect(info.scopes).toEqual(['invoice:write'])
    expect(info.invoice_token).toEqual({ address: ctx.devnet.deployment.token, symbol: 'USDC', decimals: 6 })
    // no devnet here: the sign-in alone, as against another server
    const customer = (await ctx.server.stores.customers.findCustomerByName(ctx.oauth.studioId, 'Acme Robotics GmbH'))!
    const [issued] = await runMerchantCommand({ serverUrl: ctx.server.url, bearer: async () => access_token }, ['invoices', 'issue', '--customer', customer.id, '--amount', '3.75', '--json'])
    expect(JSON.parse(issued!)).toMatchObject({ amount: '3750000', status: 'Issued' })
  })
})

/** The studio owner's own sign-in at the identity provider, as the dashboard has it. */
const ownerToken = async () =>
  (await signInWithPassword({ issuer: ctx.oauth.provider.issuer, clientId: 'svc-checkout-oauth', redirectUri: `${ctx.server.url}/oauth/signed-in`, email: demoMerchantUser.email, password: demoMerchantUser.password, resource: devnetApiAudience })).accessToken

describe('GET /v1/studios/:studioId/oauth-connections', () => {
  test("the studio's owner lists the connected agent, oldest connection first, and an API key may not", async () => {
    const { client, oauth } = await connectAgent(reads)
    await client.close()
    const owner = await ownerToken()
    const connections = `${ctx.server.url}/v1/studios/${ctx.oauth.studioId}/oauth-connections`
    const listed = (await (await fetch(connections, { headers: { authorization: `Bearer ${owner}` } })).json()) as { connections: { id: string; client_name: string; door: string; scopes: string[]; created_at: string }[] }
    const created = listed.connections.map((connection) => Date.parse(connection.created_at))
    expect(created).toEqual([...created].sort((a, b) => a - b))
    const mine = listed.connections.filter((connection) => connection.door === 'mcp' && connection.client_name === 'Test agent')
    // earlier tests' agents share the name: this one is the connection with read scopes and no limits
    expect(mine).toContainEqual(expect.objectContaining({ scopes: reads, limits: null, created_at: expect.any(String) }))
    // an API key may not see them, nor the agent itself
    expect((await signedRequest(ctx.server.url, ctx.oauth.apiKey, { method: 'GET', path: `/v1/studios/${ctx.oauth.studioId}/oauth-connections` })).status).toBe(403)
    expect((await fetch(connections, { headers: { authorization: `Bearer ${oauth.saved!.access_token}` } })).status).toBe(401)
  })
})

describe('DELETE /v1/studios/:studioId/oauth-connections/:connectionId', () => {
  test("the owner's revocation ends the agent's tokens at their next call; a second revocation is 404", async () => {
    const { client, oauth } = await connectAgent(reads)
    await client.close()
    const owner = await ownerToken()
    const connections = `${ctx.server.url}/v1/studios/${ctx.oauth.studioId}/oauth-connections`
    const listed = (await (await fetch(connections, { headers: { authorization: `Bearer ${owner}` } })).json()) as { connections: { id: string; client_name: string; door: string }[] }
    const mine = listed.connections.filter((connection) => connection.door === 'mcp' && connection.client_name === 'Test agent')
    const list = () => fetch(`${ctx.server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${oauth.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    expect((await list()).status).toBe(200)
    // every connection of this test's agents (they share a name) is revoked: this one's tokens with them
    for (const connection of mine) {
      const answer = await fetch(`${connections}/${connection.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner}` } })
      expect(await answer.json()).toEqual({ revoked: true })
    }
    expect((await list()).status).toBe(401)
    expect((await fetch(`${connections}/${mine[0]!.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owner}` } })).status).toBe(404)
  })
})

describe("the studio's audit log", () => {
  type AuditEvent = { event: string; key_id: string; client_name: string | null; summary: string | null; method: string | null; path: string | null; user_id: string | null }
  const auditLog = async () => {
    const answer = await fetch(`${ctx.server.url}/v1/studios/${ctx.oauth.studioId}/api-keys/audit-log?limit=100`, { headers: { authorization: `Bearer ${await ownerToken()}` } })
    expect(answer.status).toBe(200)
    return ((await answer.json()) as { events: AuditEvent[] }).events
  }

  test("keeps every write an agent makes through MCP with the client's name, in the words its tool result says; reads and replays are not writes", async () => {
    const { client, oauth } = await connectAgent([...reads, ...writes], { max_invoice: '50', invoices_per_day: '5' })
    const name = `Audited Customer ${Date.now()}`
    const creation = await client.callTool({ name: 'customer_create', arguments: { type: 'entity', legal_name: name, email: 'audited@example.com', registration_number: 'HRB 7', address: { street: '1 Audit Way', city: 'Berlin', postal: '10115', country: 'DE' } } })
    const customer = textOf(creation).data
    const saidCreated = (creation.content as { text: string }[])[1]?.text
    expect(saidCreated).toBe(`created customer ${name} <audited@example.com> (${customer.id})`)
    const issue = { idempotency_key: `audited-${Date.now()}`, customer_id: customer.id, amount: '3000000', due_days: 9 }
    const issued = await client.callTool({ name: 'invoice_issue', arguments: issue })
    const invoice = textOf(issued)
    const saidIssued = (issued.content as { text: string }[])[1]?.text
    expect(saidIssued).toBe(`issued invoice ${invoice.id} (number ${invoice.invoiceNumber}) of 3000000 base units to customer ${customer.id}, due in 9 days`)
    const replay = await client.callTool({ name: 'invoice_issue', arguments: issue })
    expect((replay.content as { text: string }[])[1]?.text).toContain('nothing new was written')
    const listed = await client.callTool({ name: 'customers_list', arguments: {} })
    expect((listed.content as { text: string }[])[1]?.text).toMatch(/^listed \d+ customers$/)
    const canceled = await client.callTool({ name: 'invoice_cancel', arguments: { id: invoice.id } })
    expect((canceled.content as { text: string }[])[1]?.text).toMatch(new RegExp(`^canceled invoice ${invoice.id} \\(transaction 0x[0-9a-f]{64}\\)$`))
    await client.close()

    const mine = (await auditLog()).filter((event) => event.event === 'agent_write' && event.key_id === oauth.information!.client_id)
    // newest first: the cancel, the issue (once: the replay wrote nothing), the customer; no read
    expect(mine.map((event) => [event.client_name, event.method, event.path, event.summary])).toEqual([
      ['Test agent', 'POST', `/v1/invoices/${invoice.id}/cancel/submit`, (canceled.content as { text: string }[])[1]!.text],
      ['Test agent', 'POST', '/v1/invoices/issue', saidIssued],
      ['Test agent', 'POST', '/v1/customers', saidCreated],
    ])
    expect(mine[0]!.user_id).toBeTruthy()
  })

  test("keeps a CLI sign-in's writes on the REST routes with its client's name, and not its reads", async () => {
    const tokens = await cliSignIn([...reads, ...writes])
    const rest = (path: string, init: RequestInit = {}) => fetch(`${ctx.server.url}${path}`, { ...init, headers: { authorization: `Bearer ${tokens.access_token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } })
    const name = `CLI Audited ${Date.now()}`
    const created = await rest('/v1/customers', { method: 'POST', body: JSON.stringify({ type: 'entity', legalName: name, email: 'cli-audit@example.com', registrationNumber: 'HRB 9', address: { street: '1 Way', city: 'Berlin', postal: '10115', country: 'DE' } }) })
    expect(created.status).toBe(201)
    const customer = ((await created.json()) as { data: { id: string } }).data
    const changed = await rest(`/v1/customers/${customer.id}`, { method: 'PATCH', body: JSON.stringify({ notes: 'pays on Fridays' }) })
    expect(changed.status).toBe(200)
    expect((await rest(`/v1/customers/${customer.id}`)).status).toBe(200)
    const refused = await rest(`/v1/customers/${customer.id}`, { method: 'PATCH', body: JSON.stringify({ email: 'not an email' }) })
    expect(refused.status).toBe(400)
    const events = (await auditLog()).filter((event) => event.event === 'agent_write' && event.summary?.includes(customer.id))
    expect(events.map((event) => [event.client_name, event.method, event.summary])).toEqual([
      ['svc CLI', 'PATCH', `changed customer ${name} (${customer.id}): notes`],
      ['svc CLI', 'POST', `created customer ${name} <cli-audit@example.com> (${customer.id})`],
    ])
  })
})
