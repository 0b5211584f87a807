import { AuthenticationError } from '../../auth/authErrors'
import type { IdentityVerifier } from '../../auth/jwtVerifier'
import { perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import type { StudioStore } from '../../store/studioStore'
import { loginResponseSchema, meResponseSchema } from './accountWire'
import { signedInIdentity } from './signedInIdentity'
import type { User, UserStore } from './userStore'

export type AccountDependencies = {
  identity: IdentityVerifier | null
  users: UserStore
  studios: Pick<StudioStore, 'getStudio'>
}

/** Absent only where no route runs (a document of the routes). */
export type SignInRoutesDependencies = { accounts?: AccountDependencies }

/** A route's dependencies, absent only where no route runs (a document of the routes). */
export function mounted<T>(dependencies: T | undefined): T {
  if (!dependencies) throw new Error('the account routes are mounted without their dependencies')
  return dependencies
}

const userToWire = (user: User) => ({
  id: user.id,
  email: user.email,
  studioId: user.studioId,
  createdAt: user.createdAt.toISOString(),
  lastLoginAt: user.lastLoginAt.toISOString(),
})

/** Sign-ins are few; a client guessing tokens is not. */
export const accountsLimit = perClientLimit('accounts', (settings) => settings.perMinute)

const signInRoute = apiRoute<SignInRoutesDependencies>()
const policy = { auth: 'none', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH', 'AUTH_UNAVAILABLE'] as const

/** SPEC 4.1: the signed-in user. Authenticated here rather than by `authenticate`, which needs a
 * studio: a user signs in before owning one. */
export const signInRoutes = [
  signInRoute({
    method: 'post',
    path: '/v1/auth/login',
    summary: 'Sign in: creates the user, or syncs its email, from the identity provider\'s access token',
    description: "Bearer token only (the identity provider's access token for this API's audience); an API key is refused. isNewUser is true the first time this issuer's subject signs in. studioId is the studio the user owns, null before one is provisioned.",
    ...policy,
    response: { status: 200, schema: loginResponseSchema, description: 'The user.' },
    errors,
    async handle(_input, dependencies, c) {
      const accounts = mounted(dependencies.accounts)
      const identity = await signedInIdentity(c, accounts.identity)
      let { user, created } = await accounts.users.signIn(identity)
      // a provider that names the studio in its tokens (JWT_STUDIO_CLAIM) makes its user the owner
      if (identity.studioId && user.studioId !== identity.studioId && (await accounts.studios.getStudio(identity.studioId))) {
        await accounts.users.makeOwner(user.id, identity.studioId)
        user = { ...user, studioId: identity.studioId }
      }
      return { success: true as const, user: { ...userToWire(user), isNewUser: created } }
    },
  }),
  signInRoute({
    method: 'get',
    path: '/v1/auth/me',
    summary: 'The signed-in user',
    description: 'Bearer token only; 401 for a user who has not signed in with POST /v1/auth/login.',
    ...policy,
    response: { status: 200, schema: meResponseSchema, description: 'The user.', headers: { 'Cache-Control': 'no-store' } },
    errors,
    async handle(_input, dependencies, c) {
      const accounts = mounted(dependencies.accounts)
      const identity = await signedInIdentity(c, accounts.identity)
      const user = await accounts.users.findUser(identity.issuer, identity.subject)
      if (!user) throw new AuthenticationError('UNAUTHORIZED', 'this user has not signed in to this deployment yet: POST /v1/auth/login first')
      return { success: true as const, user: userToWire(user) }
    },
  }),
]
