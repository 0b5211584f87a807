import { getAddress, hashTypedData, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sessionSignerValidatorAbi } from '../../contracts/artifacts/SessionSignerValidator'
import { serverSessionSeconds, startServerSession } from '../../devnet/seed'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { merchantVaultTypedData } from '../../shared/merchantVaultMessage'
import { freshMerchant, merchantCalls, ownerSigns, type FreshMerchant } from '../support/ownerOperations'
import { answerOf, signedRequest } from '../support/signedRequest'
import { cliOAuthToken } from '../support/cliOAuthToken'
import { freePort } from '../support/loopback'
import { useServer } from '../support/server'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
const owner = { subject: 'signer-owner', email: 'owner@signer-lifecycle.test', password: 'signer-owner-password' }
const otherOwner = { subject: 'signer-other-owner', email: 'owner@another-studio.test', password: 'signer-other-password' }
const profile = {
  type: 'entity' as const,
  legalName: 'Signer Lifecycle GmbH',
  email: 'billing@signer-lifecycle.test',
  address: { street: 'Torstraße 1', city: 'Berlin', postal: '10119', country: 'DE' },
  registrationNumber: 'HRB 777',
  vatNumber: null,
  tradeName: null,
  taxId: null,
}

let provider: RunningIdentityProvider
const ctx = useServer({
  // long enough for an included operation's receipt, short enough that a block not mined answers 202
  overrides: { SUBMIT_WAIT_MS: '1500' },
  beforeServer: async () => {
    // the server's own authorization server (/oauth) signs people in at the provider too: a CLI's token is refused here
    const port = await freePort()
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [owner, otherOwner], clients: [devnetIdentityClient([redirectUri, `http://127.0.0.1:${port}/oauth/signed-in`])], signingKey: await workerSigningKey() })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, OAUTH_IDENTITY_CLIENT_ID: client.clientId, PORT: String(port) }
  },
})
afterAll(() => provider?.close())

let merchant: FreshMerchant
let other: FreshMerchant
let token: string
let otherToken: string
let customerId: string
const signIn = (user: { email: string; password: string }) => signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource: devnetApiAudience })

async function asOwner(method: string, path: string, body?: unknown, bearer = token, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }
  if (body !== undefined) init.body = JSON.stringify(body)
  return answerOf(await fetch(`${ctx.server.url}${path}`, init))
}
const signerPath = (suffix: string, studioId = merchant.studioId) => `/v1/studios/${studioId}/signer/${suffix}`
const keysPath = (studioId = merchant.studioId) => `/v1/studios/${studioId}/api-keys`

/** The session the vault's session module holds, as the chain answers it. */
async function sessionOnChain(vault = merchant.vault) {
  const [signer, registry, validUntil] = await ctx.devnet.clients.public.readContract({
    address: ctx.devnet.deployment.sessionValidator!,
    abi: sessionSignerValidatorAbi,
    functionName: 'sessionOf',
    args: [vault],
  })
  return { signer, registry, validUntil }
}
const serverSigner = () => ctx.devnet.seed.serverSigner.address
const chainNow = async () => (await ctx.devnet.clients.public.getBlock()).timestamp

/** What the owner's wallet returns for a lifecycle `user_op`: the whole object, its signature set. */
const signedByOwner = (userOp: { typedDataToSign: unknown }, privateKey: Hex = merchant.ownerPrivateKey) => ownerSigns({ userOp, typedDataToSign: userOp.typedDataToSign }, privateKey)

function issueWith(key: { keyId: string; secret: string }) {
  return signedRequest(ctx.server.url, key, {
    method: 'POST',
    path: '/v1/invoices/issue',
    body: JSON.stringify({ customerId, amount: '5000000', dueDays: 7, description: 'Signer lifecycle' }),
    send: { headers: { 'idempotency-key': crypto.randomUUID() } },
  })
}
/** The studio's sponsored operations counted, every day together: a run across midnight counts the same. */
const operationsCounted = async (studioId: string) =>
  (await ctx.server.stores.db.query<{ used: number }>('SELECT COALESCE(sum(used), 0)::int AS used FROM merchant_operation_usage WHERE studio_id = $1', [studioId]))[0]!.used

beforeAll(async () => {
  merchant = await freshMerchant(ctx, 'Signer Lifecycle GmbH')
  other = await freshMerchant(ctx, 'Another Studio')
  await seedMerchantLogin(ctx.server.stores, provider.issuer, merchant.studioId, owner)
  await seedMerchantLogin(ctx.server.stores, provider.issuer, other.studioId, otherOwner)
  token = (await signIn(owner)).accessToken
  otherToken = (await signIn(otherOwner)).accessToken
  await ctx.server.stores.businessProfiles.putBusinessProfile(merchant.studioId, profile)
  const created = await merchantCalls(ctx, () => merchant).post('/v1/customers', {
    type: 'entity',
    legalName: 'Signer Customer AG',
    email: 'ap@signer-customer.test',
    address: { street: 'Bahnhofstrasse 1', city: 'Zürich', postal: '8001', country: 'CH' },
    registrationNumber: 'CHE-1',
  })
  expect(created.status).toBe(201)
  customerId = created.body.data.id
})

describe('GET /v1/studios/:studioId/signer/status', () => {
  test("default: a vault without a session answers pending_activation with a fresh StartSession in typed data; once the owner's session is on-chain it answers active with the chain's end", async () => {
    const pending = await asOwner('GET', signerPath('status'))
    expect(pending).toMatchObject({ status: 200, body: { status: 'pending_activation', signer_id: expect.any(String), signer_address: serverSigner() } })
    const { user_op } = pending.body.activation
    expect(pending.body.activation.signer_address).toBe(serverSigner())
    expect(user_op).toMatchObject({
      sender: getAddress(merchant.vault),
      signature: '0x',
      typedDataToSign: { primaryType: 'StartSession', message: { signer: serverSigner(), registry: ctx.devnet.deployment.registry, vault: getAddress(merchant.vault), operation: user_op.userOpHash } },
      clearSigning: { descriptor: 'clear-signing/eip712-svc-checkout-MerchantVault.json', intent: 'Allow server signer' },
    })
    // the message the wallet shows is the vault's own StartSession, bound to this operation
    const { message } = user_op.typedDataToSign
    const expected = merchantVaultTypedData({
      chainId: ctx.devnet.deployment.chainId,
      vault: merchant.vault,
      call: { kind: 'StartSession', signer: serverSigner(), registry: ctx.devnet.deployment.registry, sessionUntil: BigInt(message.sessionUntil) },
      validUntil: BigInt(message.validUntil),
      operation: user_op.userOpHash,
    })
    const { domain, types, primaryType } = user_op.typedDataToSign
    expect(hashTypedData({ domain, types, primaryType, message: { ...message, sessionUntil: BigInt(message.sessionUntil), validUntil: BigInt(message.validUntil) } })).toBe(hashTypedData(expected as never))

    const until = (await chainNow()) + serverSessionSeconds
    await startServerSession(ctx.devnet.anvil.rpcUrl, ctx.devnet.deployment, merchant, serverSigner(), until)
    const active = await asOwner('GET', signerPath('status'))
    expect(active).toMatchObject({
      status: 200,
      body: { status: 'active', signer_id: pending.body.signer_id, signer_address: serverSigner(), session: { registry: ctx.devnet.deployment.registry, valid_until: Number(until) } },
    })
    expect(active.headers.get('cache-control')).toBe('no-store')
  })
})

describe('POST /v1/studios/:studioId/signer/revoke', () => {
  test("behavior: revoke prepares the owner's EndSession and ends nothing; confirm-revocation with the owner's typed-data signature ends the session on-chain, and a write key's issue is refused at once", async () => {
    // the session is live: the studio's write key issues
    expect(await issueWith(merchant.apiKey)).toMatchObject({ status: 200, body: { status: 'Issued' } })

    const revoke = await asOwner('POST', signerPath('revoke'))
    expect(revoke).toMatchObject({ status: 200, body: { status: 'pending_revocation', signer_id: expect.any(String), user_op: { typedDataToSign: { primaryType: 'EndSession' }, clearSigning: { intent: 'Remove server signer' } } } })
    expect((await sessionOnChain()).signer).toBe(serverSigner())
    expect((await asOwner('GET', signerPath('status'))).body.status).toBe('pending_revocation')

    // a tampered operation: one byte of the owner's signature changed; the vault refuses it
    const signed = await signedByOwner(revoke.body.user_op)
    const signature = signed.signature as Hex
    const tampered = { ...signed, signature: `${signature.slice(0, -2)}${signature.endsWith('00') ? '01' : '00'}` }
    expect(await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: tampered })).toMatchObject({ status: 400, body: { code: 'TRANSACTION_FAILED' } })
    // signed by anyone but the owner: refused the same way
    const stranger = await signedByOwner(revoke.body.user_op, other.ownerPrivateKey)
    expect(await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: stranger })).toMatchObject({ status: 400, body: { code: 'TRANSACTION_FAILED' } })
    expect((await sessionOnChain()).signer).toBe(serverSigner())

    const confirmed = await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: signed })
    expect(confirmed).toMatchObject({ status: 200, body: { signer_id: revoke.body.signer_id, status: 'revoked', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    const receipt = await ctx.devnet.clients.public.getTransactionReceipt({ hash: confirmed.body.tx_hash })
    expect(receipt.status).toBe('success')
    expect(await sessionOnChain()).toEqual({ signer: '0x0000000000000000000000000000000000000000', registry: '0x0000000000000000000000000000000000000000', validUntil: 0 })
    // revoked, with the way back should the owner want it
    expect((await asOwner('GET', signerPath('status'))).body).toMatchObject({
      status: 'revoked',
      revocation: 'on_chain',
      transaction: { tx_hash: confirmed.body.tx_hash, kind: 'EndSession' },
      activation: { signer_address: serverSigner(), user_op: { typedDataToSign: { primaryType: 'StartSession' } } },
    })

    // refused before anything is counted or signed
    const used = await operationsCounted(merchant.studioId)
    expect(await issueWith(merchant.apiKey)).toMatchObject({ status: 403, body: { code: 'no_active_signer' } })
    expect(await operationsCounted(merchant.studioId)).toBe(used)
    // the same signed operation again answers what became of it; there is no session left to revoke
    expect(await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: signed })).toMatchObject({ status: 200, body: { status: 'revoked', tx_hash: confirmed.body.tx_hash } })
    expect(await asOwner('POST', signerPath('revoke'))).toMatchObject({ status: 409, body: { code: 'INVALID_STATE_TRANSITION' } })
  })
})

describe('POST /v1/studios/:studioId/api-keys/activate-signer', () => {
  test("behavior: a new write key's activation, signed by the owner and submitted as signed_user_op, starts a session ending with the key, and the key issues", async () => {
    const created = await asOwner('POST', keysPath(), { name: 'backend writer', scopes: ['invoice:write'], expires_in_days: 30 })
    expect(created).toMatchObject({ status: 201, body: { activation_required: true, write_status: 'pending_activation', activation: { signer_address: serverSigner(), user_op: { typedDataToSign: { primaryType: 'StartSession' } } } } })
    const keyEnd = Math.floor(new Date(created.body.expires_at).getTime() / 1000)
    expect(created.body.activation.user_op.typedDataToSign.message.sessionUntil).toBe(String(keyEnd))
    const key = { keyId: created.body.key_id, secret: created.body.secret }
    expect(await issueWith(key)).toMatchObject({ status: 403, body: { code: 'no_active_signer' } })
    // a read-only key needs no activation
    expect((await asOwner('POST', keysPath(), { name: 'reporting', scopes: ['invoice:read'] })).body).toMatchObject({ activation_required: false, write_status: 'active' })

    const signed = await signedByOwner(created.body.activation.user_op)
    // the owner's signature covers the operation: a session until another time is another operation
    const tamperedUntil = { ...signed, callData: (signed.callData as string).replace(keyEnd.toString(16).padStart(12, '0'), (keyEnd + 86_400 * 365).toString(16).padStart(12, '0')) }
    expect(tamperedUntil.callData).not.toBe(signed.callData)
    expect(await asOwner('POST', `${keysPath()}/activate-signer`, { signed_user_op: tamperedUntil })).toMatchObject({ status: 400, body: { code: 'TRANSACTION_FAILED' } })
    // the field is signed_user_op, in snake case: userOp is refused, nothing sent
    expect(await asOwner('POST', `${keysPath()}/activate-signer`, { userOp: signed })).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR' } })

    const activated = await asOwner('POST', `${keysPath()}/activate-signer`, { signed_user_op: signed })
    expect(activated).toMatchObject({ status: 200, body: { status: 'active', signer_id: expect.any(String), tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    expect(await sessionOnChain()).toEqual({ signer: serverSigner(), registry: ctx.devnet.deployment.registry, validUntil: keyEnd })
    expect(await issueWith(key)).toMatchObject({ status: 200, body: { status: 'Issued' } })

    const listed = await asOwner('GET', keysPath())
    expect(listed.body.signer).toEqual({ signer_id: activated.body.signer_id, status: 'active', signer_address: serverSigner() })
    expect(listed.body.keys.find((each: { key_id: string }) => each.key_id === key.keyId)).toMatchObject({ write_status: 'active' })
    expect((await asOwner('GET', `${keysPath()}?status=pending_activation`)).body.keys).toEqual([])
  })
})

describe('POST /v1/studios/:studioId/signer/force-revoke', () => {
  test("behavior: force-revoke refuses the keys' writes at once, says the on-chain session stays, and the chain still shows it; a new activation clears it", async () => {
    expect((await asOwner('GET', signerPath('status'))).body.status).toBe('active')
    // granted before the revocation: consent itself refuses invoice:write once the signer is revoked
    const cli = await cliOAuthToken({ serverUrl: ctx.server.url, user: owner, approve: ['invoice:write'] })
    const forced = await asOwner('POST', signerPath('force-revoke'))
    expect(forced).toMatchObject({ status: 200, body: { status: 'revoked', signer_id: expect.any(String), message: expect.stringMatching(/stays installed/) } })
    expect((await sessionOnChain()).signer).toBe(serverSigner())

    const used = await operationsCounted(merchant.studioId)
    expect(await issueWith(merchant.apiKey)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    // the CLI sign-in granted invoice:write while the signer was active is refused alike (SPEC 5.3: only with an active server signer)
    const byCli = await asOwner('POST', '/v1/invoices/issue', { customerId, amount: '5000000', dueDays: 7 }, cli, { 'idempotency-key': crypto.randomUUID() })
    expect(byCli).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } })
    expect(await operationsCounted(merchant.studioId)).toBe(used)
    expect((await asOwner('GET', signerPath('status'))).body).toMatchObject({ status: 'revoked', revocation: 'database_only' })
    expect((await asOwner('GET', `${keysPath()}?status=pending_activation`)).body.keys.map((each: { key_id: string }) => each.key_id)).toContain(merchant.apiKey.keyId)

    const created = await asOwner('POST', keysPath(), { name: 'after the forced revocation', scopes: ['write'] })
    expect(created.body).toMatchObject({ activation_required: true, activation: { user_op: { typedDataToSign: { primaryType: 'StartSession' } } } })
    expect(await asOwner('POST', `${keysPath()}/activate-signer`, { signed_user_op: await signedByOwner(created.body.activation.user_op) })).toMatchObject({ status: 200, body: { status: 'active' } })
    expect(await issueWith(merchant.apiKey)).toMatchObject({ status: 200, body: { status: 'Issued' } })
    expect(await asOwner('POST', '/v1/invoices/issue', { customerId, amount: '5000000', dueDays: 7 }, cli, { 'idempotency-key': crypto.randomUUID() })).toMatchObject({ status: 200, body: { status: 'Issued' } })
  })
})

describe('POST /v1/studios/:studioId/signer/confirm-revocation', () => {
  test("behavior: only the studio's owner, signed in, reaches the signer: no credential 401, an API key with every scope 403, another studio's owner 403, the owner's own CLI OAuth token 403, x-svc-key beside the token 400", async () => {
    // the owner's CLI sign-in, with every scope a CLI may be granted: it reads the studio, and manages no signer
    const oauthToken = await cliOAuthToken({ serverUrl: ctx.server.url, user: owner, approve: ['invoice:read', 'customer:read', 'dashboard:read', 'invoice:write', 'customer:write'] })
    expect((await asOwner('GET', '/v1/studios/me', undefined, oauthToken)).status).toBe(200)
    const routes = [
      ['GET', signerPath('status')],
      ['POST', signerPath('revoke')],
      ['POST', signerPath('confirm-revocation')],
      ['POST', signerPath('force-revoke')],
      ['POST', `${keysPath()}/activate-signer`],
    ] as const
    // an operation of the right shape, so that only the credential decides
    const wellFormed = { sender: merchant.vault, nonce: '0', callData: '0x', callGasLimit: '0', verificationGasLimit: '0', preVerificationGas: '0', maxFeePerGas: '0', maxPriorityFeePerGas: '0', signature: '0x' }
    const seen: Record<string, number[]> = {}
    for (const [method, path] of routes) {
      const body = path.endsWith('confirm-revocation') || path.endsWith('activate-signer') ? JSON.stringify({ signed_user_op: wellFormed }) : undefined
      const anonymous = await answerOf(await fetch(`${ctx.server.url}${path}`, { method, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) }))
      const withKey = await signedRequest(ctx.server.url, merchant.apiKey, { method, path, ...(body ? { body } : {}) })
      const otherStudio = await asOwner(method, path, body ? JSON.parse(body) : undefined, otherToken)
      const oauth = await asOwner(method, path, body ? JSON.parse(body) : undefined, oauthToken)
      const mixed = await asOwner(method, path, body ? JSON.parse(body) : undefined, token, { 'x-svc-key': merchant.apiKey.keyId })
      seen[`${method} ${path}`] = [anonymous.status, withKey.status, otherStudio.status, oauth.status, mixed.status]
    }
    expect(Object.values(seen)).toEqual(routes.map(() => [401, 403, 403, 403, 400]))
    // nothing was revoked by any of them
    expect((await asOwner('GET', signerPath('status'))).body.status).toBe('active')
  })
})

describe('POST /v1/invoices/:id/cancel/prepare', () => {
  test("behavior: preparing an owner's cancel spends none of the studio's daily quota; submitting the signed operation spends one", async () => {
    const issued = await issueWith(merchant.apiKey)
    expect(issued.status).toBe(200)
    const calls = merchantCalls(ctx, () => merchant)
    const used = await operationsCounted(merchant.studioId)
    const prepared = await calls.post(`/v1/invoices/${issued.body.id}/cancel/prepare`, { ownerAddress: merchant.owner })
    expect(prepared.status).toBe(200)
    expect(await calls.post(`/v1/invoices/${issued.body.id}/cancel/prepare`, { ownerAddress: merchant.owner })).toMatchObject({ status: 200 })
    expect(await operationsCounted(merchant.studioId)).toBe(used)
    const submitted = await calls.post(`/v1/invoices/${issued.body.id}/cancel`, { userOp: await ownerSigns(prepared.body, merchant.ownerPrivateKey) })
    expect(submitted).toMatchObject({ status: 200, body: { status: 'confirmed' } })
    expect(await operationsCounted(merchant.studioId)).toBe(used + 1)
  })
})

describe('POST /v1/studios/:studioId/signer/confirm-revocation', () => {
  test('behavior: a submission that times out answers 202 pending_revocation; the status reconciles it from the chain once it is mined', async () => {
    const { test: node } = ctx.devnet
    expect((await asOwner('GET', signerPath('status'))).body.status).toBe('active')
    const revoke = await asOwner('POST', signerPath('revoke'))
    const signed = await signedByOwner(revoke.body.user_op)
    await node.setAutomine(false)
    try {
      const pending = await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: signed })
      expect(pending).toMatchObject({ status: 202, body: { status: 'pending_revocation', signer_id: revoke.body.signer_id, userOpHash: revoke.body.user_op.userOpHash } })
      // not yet on-chain: the session still holds, and the status says the revocation is under way
      expect((await asOwner('GET', signerPath('status'))).body.status).toBe('pending_revocation')
      await node.mine({ blocks: 1 })
    } finally {
      await node.setAutomine(true)
    }
    const settled = await asOwner('GET', signerPath('status'))
    expect(settled.body).toMatchObject({ status: 'revoked', revocation: 'on_chain', transaction: { kind: 'EndSession', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
    expect((await sessionOnChain()).signer).toBe('0x0000000000000000000000000000000000000000')
    // the same operation again answers the transaction the chain has, and sends nothing
    expect(await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: signed })).toMatchObject({ status: 200, body: { status: 'revoked', tx_hash: settled.body.transaction.tx_hash } })
  })
})
