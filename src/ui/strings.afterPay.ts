import type { UnsafeProblemCode } from '../verify/unsafeProblem'
import type { Strings } from './strings'

/**
 * Words only the views loaded after Pay read (src/ui/widget/afterPayViews.ts): the steps in the
 * wallet, the pending and failed states, the receipt, the devnet wallet's prompt and every refusal of
 * the verifiers. English's are here and travel with those views, so the page up to the Pay button
 * carries none of them (test/size/payPageSize.test.ts holds its budget). Every other catalog
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
  // the views after Pay, from the wallet's steps to the receipt (src/ui/widget/afterPayViews.ts)
  paidBody: 'Nothing more to pay.',
  retryIn: (seconds: string) => `Try again in ${seconds}`,
  smartWalletBody: (amount: string) => `One step: the invoice registry may take ${amount} from this account, once, to pay this invoice. The network fee is paid for you.`,
  sendingCallsBody: (amount: string) => `Your wallet shows one request: allow the invoice registry to take ${amount}, then pay this invoice.`,
  noteCallsFailed: 'Your wallet reports the payment failed; the blockchain shows the invoice open. Nothing was paid.',
  noteCallsNotOnChain: 'Your wallet reports the payment done, but the blockchain shows the invoice open. Nothing was paid.',
  noteCallsUnknown: 'Your wallet has not said whether the payment went through, and the blockchain shows the invoice open. Check your wallet.',
  insufficientBody: (missing: string, balance: string) => `Your payment account holds ${balance}. ${missing} more is needed to pay this invoice.`,
  insufficientHint: 'Send the missing amount to your payment account, then check again.',
  payFromWalletSplit: (fromVault: string, fromWallet: string) => `${fromVault} from your payment account, ${fromWallet} from your wallet`,
  payFromWalletHint: 'You sign three times in your wallet; the network fee is paid for you.',
  stepFunding: (amount: string) => `1 of 3: allow your payment account to take ${amount} from your wallet, once`,
  fundingFrom: 'Taken from (your wallet)',
  fundingSpender: 'Taken by (your payment account)',
  permitSummary: (amount: string, merchant: string) => `You allow the invoice registry to take ${amount} from your payment account, once, to pay ${merchant}.`,
  permitAmount: 'Amount',
  permitToken: 'Token',
  permitMerchant: 'Paid to',
  permitSpender: 'Taken by (invoice registry)',
  permitDeadline: 'Valid until',
  stepConfirm: '3 of 3: confirm the payment',
  signingBody: 'Checked: it pays exactly this invoice and nothing else.',
  signingBodyFunded: (amount: string) => `Checked: it moves ${amount} from your wallet to your payment account and pays exactly this invoice, nothing else.`,
  walletWillAsk: 'Your wallet will ask you to sign this payment. Check that it shows the same:',
  walletLinePay: 'Pay',
  walletLineInvoice: (id: string) => `invoice ${id}`,
  walletLineAmount: 'Amount',
  walletLineTo: 'To',
  walletLineFromWallet: 'From your wallet',
  walletLineUntil: 'Valid until',
  nextCheck: (seconds: string) => `Next check in ${seconds}`,
  receiptAmount: 'Amount paid',
  receiptInvoice: 'Invoice',
  viewOnExplorer: 'View the transaction',
  labelTransaction: 'transaction',
  labelOperation: 'payment reference',
  receiptHeading: 'Receipt',
  receiptPayee: 'Paid to',
  receiptPayer: 'Paid from',
  receiptTime: 'Time',
  saveReceipt: 'Save receipt',
  fundAddress: 'Your payment account\'s address (send the missing amount here)',
  fundQr: (address: string) => `QR code of the address ${address}`,
  devnetWalletTitle: 'Devnet wallet',
  devnetWalletSignRequest: 'This page asks you to sign:',
  devnetWalletSendRequest: 'This page asks you to send a transaction:',
  devnetWalletApprove: 'Approve',
  devnetWalletReject: 'Reject',
  // above a request no descriptor describes: the wallet shows its raw fields
  devnetWalletNoDescription: 'No description for this request: check every field',
  walletRequestNext: 'Your wallet opens next and shows this request. Nothing is paid until you approve it there.',
  permitExpiredBody: 'It ran out before the payment went through. Nothing was paid.',
  getNewPermit: 'Get a new permit',
  operationValidUntil: 'Can be executed until',
  pendingAccepted: 'Waiting for the network to confirm it. This page reads the blockchain until it does.',
  pendingUnknown: 'The payment service did not answer. Your signed payment may still go through: this page reads the blockchain until it knows.',
  pendingRefused: (code: string, until: string) =>
    `The payment service refused the payment (${code}). Whoever holds it could still execute it until ${until}: this page keeps reading the blockchain. You can sign a new payment instead; at most one of them can ever go through.`,
  signNewPayment: 'Sign a new payment',
  sendAgain: 'Send again',
  failedOnChainBody: 'It was executed on-chain but did not pay the invoice. Nothing was paid.',
  unsafeHandedOver: (amount: string, until: string) =>
    `Before this was found you had signed an authorisation, and it was sent to the payment service: until ${until} it lets the invoice registry take ${amount} from your payment account, but only in a payment your payment account makes, which needs your signature again. Nothing was paid.`,
  unsafeHandedOverFunding: (amount: string, until: string) =>
    `You had also signed that your payment account may take ${amount} from your wallet until ${until}: it too can only be used in a payment your payment account makes, with your signature.`,
  unsafeNothingSigned: 'You have not signed anything for this payment.',
  differsIn: (fields: string) => `Differs in: ${fields}.`,
  errorPermitRefused: 'The payment service says the authorisation you signed does not verify. Nothing was paid. You can sign a new one: only one authorisation can ever be used.',
  signNewPermit: 'Sign a new authorisation',
  unsafeBody:
    'The payment service answered with something other than what you asked to pay, so this checkout will not ask you to sign it. Nothing was paid. Tell the sender.',
  unsafeDetails: 'Technical details',
  errorRateLimited: 'Too many requests in a short time.',
  errorUnavailable: 'The payment service is temporarily unavailable. Nothing was lost.',
  errorNetwork: 'The payment service could not be reached. Check your connection.',
  errorWallet: 'Your wallet reported a problem.',
  errorConnect: 'Could not connect to your wallet.',
  errorVerification: 'The payment could not be checked, so it was not signed.',
  errorPermitRenew: 'The payment service asked for a new authorisation. Nothing was paid. You can sign a new one: only one authorisation can ever be used.',
  errorRefused: 'The payment service could not do this. Nothing was paid. Try again, and tell the sender if it happens again.',
  errorCannotCheck: 'This page cannot check the invoice on the blockchain right now, so it will not ask you to sign anything. Nothing was paid. Try again in a moment.',
  simulatedEffect: 'Tried on the blockchain just now, before you sign:',
  simulatedPayee: 'the payee',
  errorServiceNotFound: 'The payment service cannot find this invoice right now, but the blockchain records it as open. Nothing was paid. Try again later, or ask the sender.',
  // the verifiers' refusals: they are shown only once the verifiers, loaded at the first payment
  // step, have run
  unsafe: {
    INVOICE_DIFFERS_FROM_CHAIN: 'The invoice shown differs from the one recorded on-chain.',
    PAYMASTER_DATA_MALFORMED: 'The sponsorship of the payment cannot be read.',
    SPONSORSHIP_UNBOUNDED: 'The payment would stay valid forever: it could be executed at any time later.',
    SPONSORSHIP_OUTLIVES_PERMIT: 'The payment would stay valid longer than your authorisation.',
    SPONSORSHIP_NOT_YET_VALID: 'The payment would only become valid later.',
    SIMULATION_REVERTED: 'Tried on the blockchain first, the payment would be refused: it could never go through.',
    SIMULATION_NOT_PAID: 'Tried on the blockchain first, the payment would run without paying the invoice.',
    SIMULATION_UNEXPECTED_EFFECT: 'Tried on the blockchain first, the payment would move a different amount than this invoice.',
    NONCE_KEY_NONZERO: 'The payment could run alongside other payments from your payment account.',
    NONCE_MISMATCH: 'The payment is not your payment account\'s next operation.',
    GAS_ABOVE_LIMIT: 'The payment asks for more network fees than this checkout allows.',
    PERMIT_DOMAIN_MISMATCH: 'The authorisation names another token contract version or name.',
    PERMIT_NONCE_MISMATCH: 'The authorisation is not the token\'s next one for your payment account.',
    INVOICE_NOT_ON_CHAIN: 'The invoice shown is not the one recorded on-chain.',
    USEROP_HASH_MISMATCH: 'What you would sign is not the payment shown.',
    SENDER_MISMATCH: 'The payment would be sent from an account that is not your payment account.',
    CALLDATA_UNDECODABLE: 'The payment contains an action this checkout cannot read.',
    CALLDATA_NOT_CANONICAL: 'The payment contains extra data.',
    CALL_TARGET_MISMATCH: 'The payment calls a contract other than the invoice registry.',
    MERCHANT_MISMATCH: 'The payment goes to someone other than the invoice\'s merchant.',
    INVOICE_ID_MISMATCH: 'The payment is for a different invoice.',
    INVOICE_NUMBER_MISMATCH: 'The payment names another of the merchant\'s invoice numbers.',
    FEE_MISMATCH: 'The payment names a different fee for the merchant than the one in force.',
    PERMIT_MISMATCH: 'The payment uses an authorisation other than the one you signed.',
    PERMIT_DEADLINE_MISMATCH: 'The payment reports a different authorisation deadline.',
    EXPIRY_AFTER_PERMIT: 'The payment stays valid longer than your authorisation.',
    FACTORY_UNEXPECTED: 'The payment would create an account you already have.',
    FACTORY_MISSING: 'The payment does not create your payment account, which does not exist yet.',
    FACTORY_MISMATCH: 'The payment would create your payment account with an unknown factory.',
    FACTORY_OWNER_MISMATCH: 'The payment would create a payment account owned by someone else.',
    FACTORY_DATA_MISMATCH: 'The payment would create your payment account in an unexpected way.',
    PAYMASTER_MISSING: 'The payment is not sponsored: your payment account would pay the network fee.',
    PAYMASTER_MISMATCH: 'The payment is sponsored by an unknown party.',
    RESPONSE_INVOICE_MISMATCH: 'The service prepared a different invoice.',
    AMOUNT_MISMATCH: 'The amount differs from the invoice amount.',
    TOKEN_MISMATCH: 'The token differs from the invoice token.',
    TOKEN_NOT_ACCEPTED: 'The invoice asks for a token this checkout does not accept.',
    CHAIN_MISMATCH: 'The authorisation is for another network.',
    PERMIT_TOKEN_MISMATCH: 'The authorisation is for another token.',
    PRIMARY_TYPE_MISMATCH: 'You would sign something other than a token authorisation.',
    PERMIT_TYPES_MISMATCH: 'The authorisation is not a standard token authorisation.',
    OWNER_MISMATCH: 'The authorisation spends from an account that is not your payment account.',
    SPENDER_MISMATCH: 'The authorisation lets someone other than the invoice registry spend your funds.',
    DEADLINE_PASSED: 'The authorisation has already expired.',
    DEADLINE_TOO_FAR: 'The authorisation would stay valid for more than 24 hours.',
    FUNDING_OWNER_MISMATCH: 'The funding would take from an account that is not yours.',
    FUNDING_SPENDER_MISMATCH: 'The funding would let someone other than your payment account take from your wallet.',
    FUNDING_AMOUNT_MISMATCH: 'The funding would take a different amount than your payment account lacks.',
    FUNDING_NONCE_MISMATCH: 'The funding authorisation is not the one your token expects next.',
    FUNDING_OUTLIVES_PERMIT: 'The funding authorisation would stay valid longer than the payment.',
    FUNDING_PERMIT_MISMATCH: 'The payment carries a different funding authorisation from the one you signed.',
  } satisfies Record<UnsafeProblemCode, string>,
}

export type AfterPayStrings = typeof afterPayEn

/** The catalog's words for the views after Pay: English's where the catalog is English's own. */
export function afterPayStrings(strings: Strings): AfterPayStrings {
  return strings.afterPay ?? afterPayEn
}
