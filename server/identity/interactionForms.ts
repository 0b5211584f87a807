import { escapeHtml as escape } from '../http/escapeHtml'
import { oauthPageStyle } from '../merchant/oauth/oauthPageStyle'

/** The identity provider's own pages: plain HTML forms, so that a person, a test with fetch, or
 * a screen reader can each sign in. No script, no third-party resources. They wear the dashboard's
 * look, as the authorization server's pages do, so the devnet's sign-in reads as one product; their
 * words stay English, as they stand in for the merchant's own identity provider. */

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>` +
  `<style>${oauthPageStyle}</style>` +
  `</head><body><header class="bar"><p class="brand">svc-checkout</p></header><main><h1>${escape(title)}</h1>${body}</main></body></html>`

export function renderLoginForm(uid: string, email: string, error?: string): string {
  return page(
    'Sign in to svc-checkout',
    (error ? `<p role="alert">${escape(error)}</p>` : '') +
      `<form method="post" action="/interaction/${escape(uid)}/login">` +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escape(email)}">` +
      '<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>' +
      '<button type="submit">Sign in</button></form>',
  )
}

export function renderConsentForm(uid: string, clientId: string, scope: string): string {
  return page(
    'Allow access',
    `<p>${escape(clientId)} asks to act for you on the svc-checkout API (${escape(scope)}).</p>` +
      `<form method="post" action="/interaction/${escape(uid)}/confirm"><button type="submit">Allow</button></form>`,
  )
}

/** The provider's own refusal (a request it cannot take, a sign-in gone stale): its code and words,
 * which can carry what the request sent, are shown as text. */
export function renderSignInError(error: string, description: string): string {
  return page('Sign-in error', `<p>${escape(error)}: ${escape(description)}</p>`)
}
