import type { Principal } from '../../auth/principal'
import type { StudioStore } from '../../store/studioStore'
import type { Studio } from '../../store/studioStore'
import type { AuthorizationServer, OAuthGrantPrincipal } from './authorizationServer'

type OAuthPrincipal = Extract<Principal, { kind: 'oauth' }>

/** A CLI's access token on /v1 (audience <base>/v1) as the principal of its grant's user and studio;
 * a hosted MCP token (audience <base>/mcp) is null here, as anything else it does not open. */
export function oauthPrincipalOf(authorization: AuthorizationServer, studios: Pick<StudioStore, 'getStudio'>) {
  return async function oauthPrincipal(token: string): Promise<OAuthPrincipal | null> {
    const grant = await authorization.verifyAccessToken(token, 'api')
    const studio = grant ? await studios.getStudio(grant.studioId) : null
    if (!grant || !studio) return null
    return oauthPrincipalFor(authorization, grant, studio)
  }
}

/** The principal of a grant on its studio, REST's and MCP's alike: its scopes, and its consent-time
 * issue limits bound to this grant, which the issue route checks for both doors. */
export function oauthPrincipalFor(authorization: Pick<AuthorizationServer, 'reserveIssue'>, grant: OAuthGrantPrincipal, studio: Studio): OAuthPrincipal {
  return {
    kind: 'oauth',
    studio,
    scopes: grant.scopes,
    userId: grant.userId,
    clientId: grant.clientId,
    clientName: grant.clientName,
    issueLimits: {
      reserve: (amount, idempotencyKey) => authorization.reserveIssue(grant, amount, idempotencyKey),
    },
  }
}
