import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { answerOf, signedRequest } from '../support/signedRequest'
import { useInstances } from '../support/instances'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
let provider: RunningIdentityProvider

const ctx = useInstances({
  beforeServers: async () => {
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [demoMerchantUser], clients: [client], signingKey: await workerSigningKey() })
    return { JWT_ISSUER: provider.issuer, JWT_JWKS_URL: provider.jwksUrl, JWT_AUDIENCE: devnetApiAudience }
  },
})
afterAll(() => provider?.close())

let token: string
beforeAll(async () => {
  await seedMerchantLogin(ctx.servers[0].stores, provider.issuer, ctx.merchant.studioId)
  ;({ accessToken: token } = await signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: demoMerchantUser.email, password: demoMerchantUser.password, resource: devnetApiAudience }))
})

const owner = async (server: number, path: string, method = 'POST', body?: unknown) =>
  answerOf(await fetch(`${ctx.servers[server]!.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }))
const readCustomers = (server: number, key: { keyId: string; secret: string }) => signedRequest(ctx.servers[server]!.url, key, { method: 'GET', path: '/v1/customers' })

describe('POST /v1/studios/:studioId/api-keys/:keyId/rotate', () => {
  test('rotated on one instance, the old secret is refused by the other on the very next request', async () => {
    const base = `/v1/studios/${ctx.merchant.studioId}/api-keys`
    const created = (await owner(0, base, 'POST', { name: 'two instances', scopes: ['customer:read'] })).body
    const old = { keyId: created.key_id, secret: created.secret }
    expect([(await readCustomers(0, old)).status, (await readCustomers(1, old)).status]).toEqual([200, 200])

    const rotated = await owner(0, `${base}/${created.key_id}/rotate`)
    expect(rotated.status).toBe(200)
    expect([(await readCustomers(1, old)).status, (await readCustomers(0, old)).status]).toEqual([401, 401])
    const renewed = { keyId: created.key_id, secret: rotated.body.secret }
    expect((await readCustomers(1, renewed)).status).toBe(200)

    // revoked on the second instance, refused by the first at once
    expect((await owner(1, `${base}/${created.key_id}`, 'DELETE')).body).toEqual({ key_id: created.key_id, status: 'revoked' })
    expect([(await readCustomers(0, renewed)).status, (await readCustomers(1, renewed)).status]).toEqual([401, 401])
  })
})
