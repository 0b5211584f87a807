import type { Api } from '../dashboardApi'

const studioIds = new WeakMap<Api, Promise<string>>()

/**
 * `/v1/studios/<id>` of the signed-in owner's studio: the key and connection routes name the studio
 * in their path (SPEC 4.4), and the token alone does not tell the page which it is. Asked once per
 * sign-in; a user without a studio is told so in the API's words by the route itself.
 */
export function ownStudioPath(api: Api): Promise<string> {
  let found = studioIds.get(api)
  if (!found) {
    found = api.json<{ user: { studioId: string | null } }>('GET', '/v1/auth/me').then(({ user }) => {
      if (!user.studioId) throw new Error('This account owns no studio yet.')
      return `/v1/studios/${user.studioId}`
    })
    // a failure is not kept: the next view asks again
    found.catch(() => studioIds.delete(api))
    studioIds.set(api, found)
  }
  return found
}
