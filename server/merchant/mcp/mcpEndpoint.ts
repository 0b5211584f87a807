import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { Hono } from 'hono'
import type { Principal } from '../../auth/principal'
import { perClientLimit } from '../../http/perClientLimit'
import type { StudioStore } from '../../store/studioStore'
import type { ApiRoute } from '../../routes/apiRoute'
import type { AuthorizationServer } from '../oauth/authorizationServer'
import { oauthPrincipalFor } from '../oauth/oauthPrincipal'
import { registerMerchantTools } from './mcpTools'
import type { AgentWriteAudit } from '../oauth/agentWriteAudit'

export type McpEndpointDependencies = {
  authorization: AuthorizationServer
  studios: Pick<StudioStore, 'getStudio'>
  routes: readonly ApiRoute<unknown, never>[]
  dependencies: unknown
  publicUrl: () => string
  /** The studio's audit log, where each write is kept with the client's name. */
  audit?: AgentWriteAudit
}

const bearerPattern = /^Bearer +(\S+)$/i

/** Each tool call is one request: the general per-client limit. */
export const mcpLimit = perClientLimit('mcp', (settings) => settings.perMinute)

class GrantEndedError extends Error {}

/**
 * The hosted MCP endpoint (SPEC 5.4) at /mcp: Streamable HTTP through the official SDK's server,
 * stateless (a server per request), so that any instance answers any call. Only this endpoint's
 * OAuth tokens open it: an API key's HMAC headers or an identity-provider JWT are refused, as a
 * hosted token is refused on /v1. The 401 names the protected-resource metadata (RFC 9728), from
 * which a client finds the authorization server (RFC 8414) and registers itself (RFC 7591).
 */
export function mcpEndpoint({ authorization, studios, routes, dependencies, publicUrl, audit }: McpEndpointDependencies) {
  const base = () => publicUrl().replace(/\/$/, '')
  const metadataUrl = () => `${base()}/.well-known/oauth-protected-resource/mcp`
  const app = new Hono()

  const protectedResource = () => ({
    resource: authorization.resourceOf('mcp'),
    authorization_servers: [authorization.issuer()],
    scopes_supported: ['invoice:read', 'invoice:write', 'customer:read', 'customer:write', 'dashboard:read'],
    bearer_methods_supported: ['header'],
    resource_name: 'svc-checkout',
  })
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(protectedResource()))
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(protectedResource()))

  const refuse = (message: string, error = 'invalid_token') =>
    new Response(JSON.stringify({ error, error_description: message }), {
      status: 401,
      headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="${error}", error_description="${message}", resource_metadata="${metadataUrl()}"` },
    })

  // stateless: no stream for server-initiated messages and no session to end (the SDK's client
  // takes 405 for "none offered"); a GET held open would also hold a shutdown up
  app.on(['GET', 'DELETE'], '/mcp', (c) => c.json({ error: 'METHOD_NOT_ALLOWED', code: 'METHOD_NOT_ALLOWED', message: 'this endpoint is stateless: POST JSON-RPC messages to it' }, 405, { allow: 'POST' }))
  app.post('/mcp', async (c) => {
    const authorizationHeader = c.req.header('authorization') ?? ''
    if (c.req.header('x-svc-key') !== undefined || authorizationHeader.startsWith('SVC-HMAC')) return refuse('API keys are not accepted here: connect through OAuth (SPEC 5.4)')
    const token = bearerPattern.exec(authorizationHeader)?.[1]
    if (!token) return refuse('sign in: this endpoint takes an OAuth access token', 'invalid_request')
    const first = await authorization.verifyAccessToken(token, 'mcp')
    if (!first) return refuse('the access token is unknown, expired or revoked')

    // each tool call reads the grant again: a revocation or a lost membership ends it mid-session;
    // its consent-time limits travel in the principal and invoice_issue meets them in the REST route
    async function principal(): Promise<Principal> {
      const current = await authorization.verifyAccessToken(token!, 'mcp')
      const studio = current ? await studios.getStudio(current.studioId) : null
      if (!current || !studio) throw new GrantEndedError('the connection was revoked or its membership ended')
      return oauthPrincipalFor(authorization, current, studio)
    }
    const server = new McpServer({ name: 'svc-checkout', version: '1.0.0' })
    registerMerchantTools(server, { principal, routes, dependencies, baseUrl: base(), ...(audit ? { audit } : {}) })
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw, { authInfo: { token, clientId: first.clientId, scopes: first.scopes } })
    } catch (error) {
      if (error instanceof GrantEndedError) return refuse(error.message)
      throw error
    }
  })
  return app
}
