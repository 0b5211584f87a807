import { partOf, perClientLimit, type PerClientLimit } from '../../http/perClientLimit'

/** The doors of /oauth: starting a sign-in, registering a client, asking for or refreshing a token.
 * A tenth of the general limit per client: each writes to the database, and none needs a person. */
export const oauthLimit = perClientLimit('oauth', (settings) => partOf(settings, 10))

/** A person's steps through a sign-in already started (the interaction pages, the identity
 * provider's way back, the provider's resume) and a token asking who it stands for: the general
 * limit. Counted at the doors, a CLI's commands and a person's clicks from one address shared a
 * small count, and a script issuing through the CLI could lock its own merchant out of consent. */
export const oauthStepsLimit = perClientLimit('oauth-steps', (settings) => settings.perMinute)

export const oauthLimits = [oauthLimit, oauthStepsLimit] as const

const stepPath = /^\/oauth\/(?:interaction\/[A-Za-z0-9_-]+(?:\/(?:confirm|deny))?|auth\/[A-Za-z0-9_-]+|signed-in|token-info)\/?$/

/** The limit a request to `path` (under /oauth) is counted in. */
export function oauthLimitOf(path: string): PerClientLimit {
  return stepPath.test(path) ? oauthStepsLimit : oauthLimit
}
