import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

/** An MCP agent's side of OAuth, kept in memory as an agent would keep it on disk: the SDK's client
 * registers, saves the verifier and tokens here, and leaves the authorization URL for the test's
 * browser to open. */
export class AgentOAuth implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined
  constructor(
    readonly redirectUrl: string,
    private readonly clientName: string,
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.clientName, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  clientInformation() {
    return this.information
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}
