import { beforeAll, describe, expect, test } from 'vitest'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { answerOf, signedRequest } from '../support/signedRequest'
import { useSignedInServer } from '../support/signedInServer'

/**
 * The dashboard manages a studio's webhook endpoints with the owner's signed-in token through the
 * same routes a backend signs its requests to (/v1/webhook-endpoints): the owner adds one and sees
 * its secret once, lists it without the secret, gives it a new secret, and deletes it; another
 * studio's owner neither sees nor touches it, and a key of the studio sees what the owner made.
 */

const otherOwner = { subject: 'other-owner', email: 'owner@elsewhere.test', password: 'other-owner-password' }
const { ctx, signIn, issuer } = useSignedInServer({ users: [demoMerchantUser, otherOwner], overrides: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } })

let owner: string
let other: string
let key: { keyId: string; secret: string }

async function call(method: string, path: string, bearer: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  return answerOf(await fetch(`${ctx.server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }))
}

beforeAll(async () => {
  const seeded = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
  key = seeded.apiKey
  await seedMerchantLogin(ctx.server.stores, issuer(), seeded.studioId)
  const otherStudio = await ctx.server.stores.studios.createStudio({ name: 'Someone else', vaultAddress: ctx.devnet.seed.payer.vault, chainId: ctx.devnet.deployment.chainId })
  await seedMerchantLogin(ctx.server.stores, issuer(), otherStudio.id, otherOwner)
  ;[owner, other] = await Promise.all([signIn(demoMerchantUser), signIn(otherOwner)])
  for (const token of [owner, other]) expect((await call('POST', '/v1/auth/login', token)).status).toBe(200)
})

describe("the studio's webhook endpoints, managed with the owner's token", () => {
  test('behavior: the owner adds an endpoint and sees its secret once, lists it without the secret, gives it a new secret and deletes it', async () => {
    const url = 'http://127.0.0.1:9/hooks/owner'
    const created = await call('POST', '/v1/webhook-endpoints', owner, { url, events: ['invoice.paid', 'invoice.refunded'] })
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('no-store')
    expect(created.body).toMatchObject({ url, events: ['invoice.paid', 'invoice.refunded'], secret: expect.stringMatching(/^whsec_/) })
    const id = created.body.id as string

    const listed = await call('GET', '/v1/webhook-endpoints', owner)
    expect(listed.status).toBe(200)
    const mine = (listed.body.endpoints as { id: string }[]).find((endpoint) => endpoint.id === id)
    expect(mine).toMatchObject({ url, status: 'active', failingSince: null })
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    // the backend's key sees what the owner made: one list, whoever manages it
    const byKey = await signedRequest(ctx.server.url, key, { method: 'GET', path: '/v1/webhook-endpoints' })
    expect((byKey.body.endpoints as { id: string }[]).map((endpoint) => endpoint.id)).toContain(id)

    const rotated = await call('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, owner)
    expect(rotated.status).toBe(200)
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(created.body.secret)
    expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now())
    // both sign for the day of grace, the new one first
    expect((await ctx.server.stores.webhookEndpoints.getTarget(id))!.secrets).toEqual([rotated.body.secret, created.body.secret])

    expect(await call('DELETE', `/v1/webhook-endpoints/${id}`, owner)).toMatchObject({ status: 200, body: { id, deleted: true } })
    expect((await call('GET', '/v1/webhook-endpoints', owner)).body.endpoints.map((endpoint: { id: string }) => endpoint.id)).not.toContain(id)
    expect(await ctx.server.stores.webhookEndpoints.getTarget(id)).toBeNull()
  })

  test("behavior: another studio's owner does not see the endpoint, and rotating or deleting it answers 404 as for none", async () => {
    const created = await call('POST', '/v1/webhook-endpoints', owner, { url: 'http://127.0.0.1:9/hooks/private' })
    expect(created.status).toBe(201)
    const id = created.body.id as string
    expect((await call('GET', '/v1/webhook-endpoints', other)).body.endpoints.map((endpoint: { id: string }) => endpoint.id)).not.toContain(id)
    for (const [method, path] of [
      ['POST', `/v1/webhook-endpoints/${id}/rotate-secret`],
      ['DELETE', `/v1/webhook-endpoints/${id}`],
    ] as const) {
      expect(await call(method, path, other), `${method} ${path}`).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    }
    // still there, with the secret it was given
    expect((await ctx.server.stores.webhookEndpoints.getTarget(id))!.secrets).toEqual([created.body.secret])
  })

  test('behavior: a URL that is not http(s) is refused in the words the page shows, with nothing created', async () => {
    const before = (await call('GET', '/v1/webhook-endpoints', owner)).body.endpoints.length
    const refused = await call('POST', '/v1/webhook-endpoints', owner, { url: 'ftp://127.0.0.1/hooks' })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('VALIDATION_ERROR')
    expect(refused.body.details.map((issue: { message: string }) => issue.message).join(' ')).toMatch(/http\(s\) URL/)
    expect((await call('GET', '/v1/webhook-endpoints', owner)).body.endpoints).toHaveLength(before)
  })
})
