import * as z from 'zod/mini'
import { HttpError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import { requireOwner } from '../accounts/requireOwner'
import { accountsLimit } from '../accounts/signInRoutes'
import type { AuthorizationServer } from './authorizationServer'

export type OAuthConnectionsDependencies = Pick<AuthorizationServer, 'listConnections' | 'revokeConnection'>

/** Absent where no authorization server runs (no OAUTH_IDENTITY_CLIENT_ID): the routes answer 404. */
export type ConnectionRoutesDependencies = { oauthConnections?: OAuthConnectionsDependencies }

const studioParams = z.object({ studioId: z.uuid('the studio id is a UUID') })
const connectionParams = z.object({ studioId: z.uuid('the studio id is a UUID'), connectionId: z.string().check(z.regex(/^[A-Za-z0-9_-]{10,100}$/, 'the connection id is the id the list answers')) })

const connectionSchema = z.object({
  id: z.string(),
  client_name: z.string(),
  door: z.enum(['mcp', 'cli']),
  scopes: z.array(z.string()),
  limits: z.nullable(z.object({ max_invoice: z.string(), invoices_per_day: z.number() })),
  created_at: z.string(),
})

const route = apiRoute<ConnectionRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH', 'NOT_FOUND'] as const
const base = '/v1/studios/:studioId/oauth-connections'

function connectionsOf(dependencies: ConnectionRoutesDependencies): OAuthConnectionsDependencies {
  if (!dependencies.oauthConnections) throw new HttpError(404, 'NOT_FOUND', 'this deployment has no OAuth sign-in (OAUTH_IDENTITY_CLIENT_ID is not set)')
  return dependencies.oauthConnections
}

/**
 * The studio's connected agents and CLI sign-ins (SPEC 5.4's "connection"; our extension beside the
 * 4.6 agents, which are API-key integrations): the owner lists them and revokes one, which ends its
 * tokens at their next use. The owner's bearer token only, as for API keys.
 */
export const connectionRoutes = [
  route({
    method: 'get',
    path: base,
    summary: "Lists the studio's connected MCP clients and CLI sign-ins",
    ...policy,
    params: studioParams,
    response: { status: 200, schema: z.object({ connections: z.array(connectionSchema) }), description: 'One row per grant and door, oldest first.' },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const connections = await connectionsOf(dependencies).listConnections(studio.id)
      return {
        connections: connections.map((connection) => ({
          id: connection.id,
          client_name: connection.clientName,
          door: connection.door,
          scopes: connection.scopes,
          limits: connection.limits ? { max_invoice: connection.limits.maxInvoice, invoices_per_day: connection.limits.perDay } : null,
          created_at: connection.createdAt.toISOString(),
        })),
      }
    },
  }),
  route({
    method: 'delete',
    path: `${base}/:connectionId`,
    summary: 'Revokes a connected MCP client or CLI sign-in',
    ...policy,
    params: connectionParams,
    response: { status: 200, schema: z.object({ revoked: z.literal(true) }), description: 'Revoked: its tokens are refused from their next use.' },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      if (!(await connectionsOf(dependencies).revokeConnection(studio.id, params.connectionId))) throw new HttpError(404, 'NOT_FOUND', 'no connection with this id in this studio')
      return { revoked: true as const }
    },
  }),
]
