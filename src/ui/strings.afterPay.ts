import type { Strings } from './strings'

/**
 * Words only the views loaded after Pay read (src/ui/widget/afterPayViews.ts): English's are here and
 * travel with those views, so the page up to the Pay button carries none of them. Every other catalog
 * holds its own under `afterPay`, in its one chunk. The views read them through `afterPayStrings`.
 */
export const afterPayEn = {
  // a service that answered, but wrongly: it was reached
  errorInvalidAnswer: 'The payment service answered, but not in a form this page can use. Nothing was paid. Try again, and tell the sender if it happens again.',
  pendingServiceSays: 'The payment service says it sent your payment; nothing on the blockchain yet. This page keeps reading the blockchain and shows the payment once it is there.',
  pendingUnreadable: 'The payment service answered in a form this page cannot read. Your signed payment may still go through: this page reads the blockchain until it knows.',
  notSentBody: 'The payment service said it had sent your payment, but the blockchain never showed it, and now it can no longer go through: it was not sent. Nothing was paid. You can try again.',
}

export type AfterPayStrings = typeof afterPayEn

/** The catalog's words for the views after Pay: English's where the catalog is English's own. */
export function afterPayStrings(strings: Strings): AfterPayStrings {
  return strings.afterPay ?? afterPayEn
}
