import type { Studio } from '../store/studioStore'

/** Who a merchant request comes from, once authenticated. An API key is limited to its scopes; a
 * signed-in user (identity-provider JWT) is not scope-limited (SPEC 5.6 guards scopes for keys); its
 * userId is there when its studio came from its membership rather than a studio claim. */
export type Principal =
  | { kind: 'apiKey'; studio: Studio; scopes: readonly string[] }
  | { kind: 'user'; studio: Studio; userId?: string }
  /** An OAuth grant's token (SPEC 5.3, 5.4): limited to the scopes its user approved, as a key is. */
  | { kind: 'oauth'; studio: Studio; scopes: readonly string[]; userId: string; clientId: string; clientName: string; issueLimits: IssueLimits }

/** The limits the person set at consent on an OAuth grant's invoice writes (SPEC 5.4), carried by its
 * principal so that every door that issues (REST, MCP) is bound by them through the one route. */
export type IssueLimits = {
  /** Takes this issue's place in the grant's 24 hours, or says why the limits refuse it (in USDC, as
   * the person set it); a key the grant already used is never refused and takes no new place. */
  reserve(amount: bigint, idempotencyKey: string): Promise<IssueReservation>
}

/** A refusal, or a place held for the issue: given back with `release` when the issue fails. */
export type IssueReservation = { refusal: string } | { refusal: null; release(): Promise<void> }

/** The Hono environment of routes behind `authenticate`. */
export type AuthEnv = { Variables: { principal: Principal } }
