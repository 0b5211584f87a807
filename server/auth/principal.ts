import type { Studio } from '../store/studioStore'

/** Who a merchant request comes from, once authenticated. An API key is limited to its scopes; a
 * signed-in user (identity-provider JWT) is not scope-limited (SPEC 5.6 guards scopes for keys); its
 * userId is there when its studio came from its membership rather than a studio claim. */
export type Principal =
  | { kind: 'apiKey'; studio: Studio; scopes: readonly string[] }
  | { kind: 'user'; studio: Studio; userId?: string }
  /** An OAuth grant's token (SPEC 5.3, 5.4): limited to the scopes its user approved, as a key is. */
  | { kind: 'oauth'; studio: Studio; scopes: readonly string[]; userId: string; clientId: string; clientName: string }

/** The Hono environment of routes behind `authenticate`. */
export type AuthEnv = { Variables: { principal: Principal } }
