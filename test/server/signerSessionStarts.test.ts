import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sessionSignerValidatorAbi } from '../../contracts/artifacts/SessionSignerValidator'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { freshMerchant, ownerSigns, type FreshMerchant } from '../support/ownerOperations'
import { answerOf } from '../support/signedRequest'
import { freePort } from '../support/loopback'
import { useServer } from '../support/server'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
const owner = { subject: 'session-starts-owner', email: 'owner@session-starts.test', password: 'session-starts-password' }
/** The server signer's sponsored session starts a studio has a day: small, so the test reaches it. */
const startsPerDay = 2

let provider: RunningIdentityProvider
const ctx = useServer({
  overrides: { SUBMIT_WAIT_MS: '1500', MERCHANT_DAILY_SESSION_STARTS: String(startsPerDay) },
  beforeServer: async () => {
    const port = await freePort()
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [owner], clients: [devnetIdentityClient([redirectUri, `http://127.0.0.1:${port}/oauth/signed-in`])], signingKey: await workerSigningKey() })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, OAUTH_IDENTITY_CLIENT_ID: client.clientId, PORT: String(port) }
  },
})
afterAll(() => provider?.close())

let merchant: FreshMerchant
let token: string

async function asOwner(method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }
  if (body !== undefined) init.body = JSON.stringify(body)
  return answerOf(await fetch(`${ctx.server.url}${path}`, init))
}
const signerPath = (suffix: string) => `/v1/studios/${merchant.studioId}/signer/${suffix}`
const keysPath = () => `/v1/studios/${merchant.studioId}/api-keys`
const signedByOwner = (userOp: { typedDataToSign: unknown }) => ownerSigns({ userOp, typedDataToSign: userOp.typedDataToSign }, merchant.ownerPrivateKey)

/** The server signer the vault's session module holds now: the zero address once the session ended. */
async function sessionSigner() {
  const [signer] = await ctx.devnet.clients.public.readContract({ address: ctx.devnet.deployment.sessionValidator!, abi: sessionSignerValidatorAbi, functionName: 'sessionOf', args: [merchant.vault] })
  return signer
}
const serverSigner = () => ctx.devnet.seed.serverSigner.address
const zeroAddress = '0x0000000000000000000000000000000000000000'

/** The owner signs the activation the status answered and sends it: the session is live on-chain. */
async function startSession() {
  const status = await asOwner('GET', signerPath('status'))
  expect(status.status, JSON.stringify(status.body)).toBe(200)
  expect(status.body.activation?.user_op.typedDataToSign.primaryType).toBe('StartSession')
  const activated = await asOwner('POST', `${keysPath()}/activate-signer`, { signed_user_op: await signedByOwner(status.body.activation.user_op) })
  expect(activated).toMatchObject({ status: 200, body: { status: 'active' } })
  expect(await sessionSigner()).toBe(serverSigner())
}

/** The owner prepares the EndSession, signs it and sends it: the session is gone from the chain. */
async function endSession() {
  const revoke = await asOwner('POST', signerPath('revoke'))
  expect(revoke, JSON.stringify(revoke.body)).toMatchObject({ status: 200, body: { status: 'pending_revocation', user_op: { typedDataToSign: { primaryType: 'EndSession' } } } })
  const confirmed = await asOwner('POST', signerPath('confirm-revocation'), { signed_user_op: await signedByOwner(revoke.body.user_op) })
  expect(confirmed).toMatchObject({ status: 200, body: { status: 'revoked', tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) } })
  expect(await sessionSigner()).toBe(zeroAddress)
}

beforeAll(async () => {
  merchant = await freshMerchant(ctx, 'Session Starts GmbH')
  await seedMerchantLogin(ctx.server.stores, provider.issuer, merchant.studioId, owner)
  token = (await signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: owner.email, password: owner.password, resource: devnetApiAudience })).accessToken
})

describe("the server signer's sponsored session starts", () => {
  test("a studio gets MERCHANT_DAILY_SESSION_STARTS sponsored starts a day, reading its status again costing none; past them the status is still read, saying no session can be started before the next UTC day, and ending the live session still goes through", async () => {
    // the same start, read three times at one vault nonce: one of the day's starts, however often the page asks
    for (let read = 0; read < 3; read++) {
      expect((await asOwner('GET', signerPath('status'))).body).toMatchObject({ status: 'pending_activation', activation: { signer_address: serverSigner() }, session_starts: { limit: startsPerDay, used: 1, remaining: startsPerDay - 1 } })
    }
    await startSession()
    await endSession()
    // the second start, the last of the day
    await startSession()

    // the owner stops the keys here only: the session stays installed on the vault
    expect(await asOwner('POST', signerPath('force-revoke'))).toMatchObject({ status: 200, body: { status: 'revoked' } })
    expect(await sessionSigner()).toBe(serverSigner())

    // a third start would be sponsored: the status is still the owner's to read, without a start to sign, saying when
    const status = await asOwner('GET', signerPath('status'))
    expect(status.status, JSON.stringify(status.body)).toBe(200)
    expect(status.body).toMatchObject({
      status: 'revoked',
      revocation: 'database_only',
      activation_error: expect.stringMatching(/started 2 times today.*start it again from 00:00 UTC .*Ending a session is never limited/),
      session_starts: { limit: startsPerDay, used: startsPerDay, remaining: 0 },
    })
    expect(status.body.activation).toBeUndefined()
    const resetsAt = Date.parse(status.body.session_starts.resets_at)
    expect(resetsAt).toBeGreaterThan(Date.now())
    expect(resetsAt - Date.now()).toBeLessThanOrEqual(86_400_000)
    expect(new Date(resetsAt).toISOString()).toMatch(/T00:00:00\.000Z$/)

    // a write key is still made, its secret shown once; its activation says why there is none yet
    const key = await asOwner('POST', keysPath(), { name: 'after the day of starts', scopes: ['invoice:write'] })
    expect(key).toMatchObject({ status: 201, body: { secret: expect.any(String), activation_required: true, activation_error: expect.stringMatching(/start it again from 00:00 UTC/) } })
    expect(key.body.activation).toBeUndefined()

    // ending the session that is still installed is never held back by the limit
    await endSession()
    expect((await asOwner('GET', `${keysPath()}`)).status).toBe(200)
  })
})
