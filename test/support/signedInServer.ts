import { afterAll } from 'vitest'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { devnetApiAudience, devnetIdentityClient } from '../../devnet/seedMerchantLogin'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { useServer, type UseServerParameters } from './server'
import { workerSigningKey } from './identityKey'

type Person = { subject: string; email: string; password: string }

/**
 * A test server whose signed-in owners come from a real identity provider (oidc-provider, on
 * loopback) knowing `users`; `signIn` is the password sign-in the dashboard makes for one of them,
 * answering the access token the API takes. `issuer()` is the provider's, for seedMerchantLogin.
 */
export function useSignedInServer({ users, overrides }: { users: Person[]; overrides?: UseServerParameters['overrides'] }) {
  const redirectUri = 'http://127.0.0.1:9/signed-in'
  const client = devnetIdentityClient([redirectUri])
  let provider: RunningIdentityProvider | undefined
  const ctx = useServer({
    ...(overrides ? { overrides } : {}),
    beforeServer: async () => {
      provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users, clients: [client], signingKey: await workerSigningKey() })
      const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
      return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience }
    },
  })
  afterAll(async () => {
    await provider?.close()
  })
  const issuer = () => provider!.issuer
  const signIn = async (user: { email: string; password: string }) =>
    (await signInWithPassword({ issuer: issuer(), clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource: devnetApiAudience })).accessToken
  return { ctx, signIn, issuer }
}
