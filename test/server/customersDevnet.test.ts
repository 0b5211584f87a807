import { describe, expect, test } from 'vitest'
import { demoBusinessProfile, devnetKeyScopes, seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { isProfileComplete } from '../../server/merchant/profile/businessProfile'
import { signedRequest } from '../support/signedRequest'
import { useServer } from '../support/server'

const ctx = useServer()

describe("the devnet's demo studio, as `npm start` seeds it", () => {
  test('default: its key holds every granular scope; its profile is complete; Acme Robotics GmbH is its customer, once however often it is seeded', async () => {
    const { studioId, apiKey } = await seedMerchantAccess(ctx.server.stores, ctx.devnet)
    await seedMerchantAccess(ctx.server.stores, ctx.devnet)
    const key = (await ctx.server.stores.apiKeys.listApiKeys(studioId)).find((listed) => listed.keyId === apiKey.keyId)
    expect(key?.scopes).toEqual([...devnetKeyScopes])
    const profile = await ctx.server.stores.businessProfiles.getBusinessProfile(studioId)
    expect(profile).toEqual({ ...demoBusinessProfile, updatedAt: expect.any(Date) })
    expect(profile?.legalName).toBe('Northwind Studio Ltd')
    expect(isProfileComplete(profile)).toBe(true)

    // over HTTP to the running server, on PostgreSQL, as the merchant's backend would ask
    const listed = await signedRequest(ctx.server.url, apiKey, { method: 'GET', path: '/v1/customers', query: 'search=acme' })
    expect(listed.status).toBe(200)
    expect(listed.body.meta).toEqual({ total: 1, limit: 25, offset: 0, hasMore: false })
    expect(listed.body.data[0]).toMatchObject({
      studioId,
      type: 'entity',
      legalName: 'Acme Robotics GmbH',
      email: 'accounts@acme-robotics.example',
      address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
      registrationNumber: 'HRB 123456',
    })
    const created = await signedRequest(ctx.server.url, apiKey, {
      method: 'POST',
      path: '/v1/customers',
      body: JSON.stringify({ type: 'person', legalName: 'Devnet Newcomer', email: 'new@devnet.example', address: { street: '1 Main St', city: 'Austin', postal: '78701', country: 'US' } }),
    })
    expect(created.status).toBe(201)
    expect((await signedRequest(ctx.server.url, apiKey, { method: 'DELETE', path: `/v1/customers/${created.body.data.id}` })).status).toBe(204)
  })
})
