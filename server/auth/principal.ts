import type { Studio } from '../store/studioStore'

/** Who a merchant request comes from, once authenticated. An API key is limited to its scopes; a
 * signed-in user (identity-provider JWT) is not scope-limited (SPEC 5.6 guards scopes for keys). */
export type Principal = { kind: 'apiKey'; studio: Studio; scopes: readonly string[] } | { kind: 'user'; studio: Studio }

/** The Hono environment of routes behind `authenticate`. */
export type AuthEnv = { Variables: { principal: Principal } }
