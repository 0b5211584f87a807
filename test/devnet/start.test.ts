import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createPublicClient, http } from 'viem'
import { simpleParser } from 'mailparser'
import { expect, onTestFinished, test } from 'vitest'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { builtPage } from '../support/builtPage'
import { portIsFree } from '../support/loopback'
import { startNpmStart } from '../support/npmStart'
import { runCli } from '../support/runCli'
import { signedRequest } from '../support/signedRequest'

const defaultRpcPort = 8545

test('behavior: npm start brings the devnet up with no configuration, writes devnet.json, and stops cleanly on Ctrl-C', async () => {
  // as a newcomer runs it: its node on the default port, serving the page `npm run build` made for it.
  // Taken (a developer's own npm start), it runs on a free port and builds a page for that one.
  await builtPage()
  const onDefaultPort = await portIsFree(defaultRpcPort)
  const devnet = await startNpmStart(onDefaultPort ? { DEVNET_RPC_PORT: String(defaultRpcPort) } : {})
  onTestFinished(async () => {
    await devnet.stop()
  })
  const { file } = devnet
  await expect.poll(() => devnet.output(), { timeout: 5_000 }).toMatch(/devnet ready in \d+ ms/)
  // no second page: the one `npm run build` made pins this node
  if (onDefaultPort) expect(existsSync(join(dirname(file.database!.socket), 'dist'))).toBe(false)
  const client = createPublicClient({ transport: http(file.rpcUrl) })
  expect(await client.getChainId()).toBe(file.chainId)
  expect(await client.getCode({ address: file.contracts.entryPoint })).toMatch(/^0x.+/)
  expect(file.invoices.length).toBeGreaterThanOrEqual(3)
  for (const invoice of file.invoices) {
    const stored = await client.readContract({ address: file.contracts.registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [BigInt(invoice.id)] })
    expect(stored.amount.toString()).toBe(invoice.amount)
    expect(stored.merchant).toBe(file.merchant.vault)
  }
  expect(await client.readContract({ address: file.contracts.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [file.payer.vault] })).toBeGreaterThan(0n)
  expect(await client.getCode({ address: file.payer.vault })).toBeUndefined()

  const invoice = file.invoices[0]!
  const served = await (await fetch(`${file.serverUrl}/v1/pay/${invoice.id}`)).json()
  expect(served.data).toMatchObject({ id: invoice.id, amount: invoice.amount, status: 'Issued' })
  const token = new URL(invoice.shareLink).searchParams.get('token')
  expect(token).toMatch(/^svc_tk_[A-Za-z0-9_-]{43}$/)
  const opened = await (await fetch(`${file.serverUrl}/v1/pay/${invoice.id}/metadata?token=${token}`)).json()
  expect(opened.accessLevel).toBe('full')
  expect(opened.metadata.invoiceNumber).toBe(invoice.invoiceNumber)

  // the customer's mail goes to the devnet's own SMTP server, which keeps it where devnet.json says
  const sent = await signedRequest(file.serverUrl, file.merchant.apiKey, { method: 'POST', path: `/v1/invoices/${invoice.id}/send-email`, body: '{}' })
  expect(sent).toMatchObject({ status: 200, body: { delivery: { status: 'sent', to: 'accounts@acme-robotics.example' } } })
  const kept = () => readdirSync(file.mailbox!).filter((name) => name.endsWith('.eml'))
  await expect.poll(() => kept().length).toBe(1)
  const mail = await simpleParser(readFileSync(join(file.mailbox!, kept()[0]!)))
  expect(mail.subject).toBe(`Rechnung ${invoice.invoiceNumber} von Northwind Studio Ltd`)
  expect(mail.text).toContain(invoice.shareLink)

  // `npm run keys` with nothing configured reaches this devnet's database, through the running devnet
  const keys = await runCli('cli/keys.ts', ['list', '--studio', file.merchant.studioId], { SVC_DEVNET_DIR: dirname(file.database!.socket) })
  expect(keys.code).toBe(0)
  expect((JSON.parse(keys.stdout) as { key_id: string }[]).map((key) => key.key_id)).toEqual([file.merchant.apiKey.keyId])

  // the demo merchant signs in through the devnet's identity provider with devnet.json's credentials,
  // and its bearer token opens the demo studio's owner routes
  expect(file.identity?.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(file.merchant.login?.email).toBe('merchant@devnet.svc-checkout.test')
  expect(devnet.output()).toContain(`sign-in    OpenID Connect provider ${file.identity!.issuer}`)
  const signedIn = await runCli('cli/devnetSignIn.ts', [], { SVC_DEVNET_DIR: dirname(file.database!.socket) })
  expect(signedIn.code).toBe(0)
  const [accessToken, login] = signedIn.stdout.trim().split('\n')
  expect(JSON.parse(login!).user).toMatchObject({ email: file.merchant.login!.email, studioId: file.merchant.studioId, isNewUser: false })
  const profile = await fetch(`${file.serverUrl}/v1/studios/me/profile`, { headers: { authorization: `Bearer ${accessToken}` } })
  expect(await profile.json()).toMatchObject({ success: true, profileComplete: true })
  // the second devnet user has no studio yet: they provision one through their wallet (SPEC 4.3)
  const newcomer = await signInWithPassword({ issuer: file.identity!.issuer, clientId: file.identity!.clientId, redirectUri: file.identity!.redirectUri, resource: file.identity!.audience, ...file.merchant.newLogin! })
  const newcomerLogin = await fetch(`${file.serverUrl}/v1/auth/login`, { method: 'POST', headers: { authorization: `Bearer ${newcomer.accessToken}` } })
  expect(await newcomerLogin.json()).toMatchObject({ success: true, user: { email: 'newmerchant@devnet.local', studioId: null, isNewUser: true } })

  // the dashboard, printed beside the share links, is served where devnet.json says, signing in at its provider
  expect(file.dashboardUrl).toBe(`${file.serverUrl}/dashboard`)
  expect(devnet.output()).toContain(`dashboard  Sign in to the dashboard: ${file.dashboardUrl}`)
  const dashboard = await fetch(file.dashboardUrl!)
  expect([dashboard.status, await dashboard.text()]).toEqual([200, expect.stringContaining('<h1>Merchant dashboard</h1>')])
  expect(await (await fetch(`${file.serverUrl}/dashboard/config.json`)).json()).toEqual({ issuer: file.identity!.issuer, audience: file.identity!.audience, clientId: file.identity!.clientId, scope: 'openid email api' })

  expect(await devnet.stop()).toBe(0)
  await expect(client.getChainId()).rejects.toThrow()
  await expect(fetch(`${file.serverUrl}/v1/pay/${invoice.id}`)).rejects.toThrow()
  // the whole stack as a newcomer starts it (node, deployment, seed, database, server, mailbox,
  // identity provider) and three command-line tools after it: about 25 s on two quiet cores, and a
  // suite running beside it on the same two may double that. A limit, not a measure: speed is benched.
}, 90_000)
