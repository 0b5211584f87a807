/** How a CLI's or an agent's OAuth access token begins (SPEC 5.3): told apart from an identity
 * provider's JWT before anything is verified. */
export const oauthAccessTokenPrefix = 'svc_oat_'
