import { describe, expect, test } from 'vitest'
import { useOAuthServer } from '../support/oauthServer'

// the doors of /oauth have a tenth of it: 6 a minute per client; the steps of a sign-in, all 60
const ctx = useOAuthServer({ overrides: { RATE_LIMIT_PER_MINUTE: '60' } })

describe('the per-client limits of /oauth', () => {
  test("a token asking who it stands for and a person's steps through consent spend nothing of the doors: after an agent's twelve token-info reads, a second agent still signs in, and only the seventh door a minute is refused", async () => {
    // registration, the authorization request and the token request: three doors
    const first = await ctx.connectAgent(['invoice:read'])
    const tokenInfo = () => fetch(`${ctx.server.url}/oauth/token-info`, { headers: { authorization: `Bearer ${first.oauth.saved!.access_token}` } })
    const statuses: number[] = []
    for (let read = 0; read < 12; read++) statuses.push((await tokenInfo()).status)
    expect(statuses).toEqual(Array(12).fill(200))

    // three more doors, and every page of its consent besides
    const second = await ctx.connectAgent(['invoice:read'])
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0)

    const seventh = await fetch(`${ctx.server.url}/oauth/auth?client_id=${first.oauth.information!.client_id}&response_type=code`, { redirect: 'manual' })
    expect(seventh.status).toBe(429)
    expect(await seventh.json()).toMatchObject({ code: 'RATE_LIMITED' })
    expect(Number(seventh.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // the token's own question is still answered
    expect((await tokenInfo()).status).toBe(200)
  })
})
