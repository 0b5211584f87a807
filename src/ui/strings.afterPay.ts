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
  // a smart account (contract code at its address): it pays from itself, never from a vault
  smartShort: (missing: string, balance: string) =>
    `This account holds ${balance}; ${missing} more is needed to pay this invoice. Send it to this account itself, at the address below, then check again. Do not send it to a payment account: a smart account cannot pay from one.`,
  smartCannotPay:
    'This account is a smart contract account. This checkout takes its payment only as one step sent by your wallet, with the network fee paid by the checkout, and your wallet does not offer that here. Nothing was paid. Pay from another wallet.',
  strandedBody: (amount: string) => `Your payment account holds ${amount} that this account cannot pay with: a smart account cannot sign for a payment account. Only this account can take it out.`,
  moveBack: (amount: string) => `Move ${amount} back to this account (you pay the network fee)`,
  strandedHow: (token: string) =>
    `To take it out, send from this account a call to the payment account's execute function that transfers all its ${token} to this account. This page cannot send it with this wallet. Until then it stays in the payment account, and no one else can take it.`,
  movingBack: (amount: string) => `Your wallet shows one request: move ${amount} from your payment account back to this account. You pay its network fee.`,
  followingMoveBack: 'Waiting for the blockchain to show the transfer from your payment account. This page reads it until it does.',
  noteMoveNotOnChain: 'The blockchain does not show the transfer from your payment account. Nothing was moved; you can try again.',
  // who pays which fee, from the chain's own run of the operation: the payer the amount and nothing
  // more, the merchant the service fee out of its share (src/ui/feeShares.ts rounds the share and fee)
  simulatedShares: (paid: string, payee: string, receives: string, fee: string) =>
    `you pay exactly ${paid}, with no network fee (it is sponsored); ${payee} receives ${receives}, as its service fee of ${fee} comes out of its share, not out of what you pay.`,
  // beside every address the payer is asked to send to: where and what, from the pinned deployment
  fundNetwork: 'Network',
  labelTokenContract: 'token contract',
  smartFundAddress: 'This account\'s address (send the missing amount here)',
  // on the receipt: what the merchant sent back, as the registry records it
  receiptRefunded: 'Refunded to the payer',
}

export type AfterPayStrings = typeof afterPayEn

/** The catalog's words for the views after Pay: English's where the catalog is English's own. */
export function afterPayStrings(strings: Strings): AfterPayStrings {
  return strings.afterPay ?? afterPayEn
}
