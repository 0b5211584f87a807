import { languageCodes, negotiateLanguage } from './languages'
import type { AfterPayStrings } from './strings.afterPay'

/** Every word the payer reads: English here, German in strings.de.ts, with the same keys. Values are
 * text or functions of already formatted values; the views never build sentences themselves. */
const en = {
  lang: 'en',
  invoiceTitle: (number: string) => `Invoice ${number}`,
  loadingInvoice: 'Loading the invoice…',
  notFoundTitle: 'Invoice not found',
  notFoundBody: 'There is no invoice at this link. Check the link you were sent, or ask the sender for a new one.',
  canceledTitle: 'This invoice was canceled',
  canceledBody: 'The sender canceled it. There is nothing to pay.',
  paidTitle: 'This invoice is paid',
  overdueTitle: 'Overdue',
  overdueBody: (date: string) => `Payment was due on ${date}. You can still pay it now.`,
  statusIssued: 'Open',
  statusPaid: 'Paid',
  statusCanceled: 'Canceled',
  statusOverdue: 'Overdue',
  from: 'From',
  billedTo: 'Billed to',
  issued: 'Issued',
  due: 'Due',
  amountDue: 'Amount due',
  description: 'Description',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  amount: 'Amount',
  subtotal: 'Subtotal',
  tax: 'Tax',
  total: 'Total',
  notes: 'Notes',
  paymentTerms: 'Payment terms',
  purchaseOrder: 'Purchase order',
  vatNumber: 'VAT',
  registrationNumber: 'Reg. no.',
  downloadPdf: 'Download PDF',
  verified: 'Verified: these details match the invoice recorded on-chain, its amount, token, chain and payee.',
  unconfirmed: 'Unconfirmed',
  unconfirmedNote: 'Not yet confirmed on-chain: the amount, payee, status and due date above come from the payment service and have not been checked against the blockchain yet.',
  notVerifiedFields: (fields: string) => `Warning: these details do not match the invoice recorded on-chain (${fields}). Do not rely on them. You would pay the on-chain amount shown above.`,
  onchainOnly: 'Only the on-chain record is shown: open the full invoice with the link you were sent.',
  detailsFailed: 'The invoice details could not be loaded.',
  showInvoiceDocument: 'Show the invoice',
  retry: 'Try again',

  payTitle: 'Pay this invoice',
  chooseWallet: 'Choose a wallet to pay with',
  noWallet: 'No wallet was found in this browser. Install a wallet extension, then reload this page.',
  browserWallet: 'Browser wallet',
  devnetWallet: 'Devnet wallet (demo payer)',
  connecting: 'Waiting for your wallet…',
  wrongNetworkTitle: 'Wrong network',
  wrongNetworkBody: (current: string, wanted: string) => `Your wallet is on ${current}. This invoice is paid on ${wanted}.`,
  chainLabel: (chainId: number) => `chain ${chainId}`,
  switchNetwork: (wanted: string) => `Switch to ${wanted}`,
  switchingNetwork: 'Switching the network in your wallet…',
  noteConnectRejected: 'You declined the connection in your wallet.',
  noteSwitchRejected: 'You declined the network switch in your wallet.',
  noteSwitchFailed: 'Your wallet could not switch. Switch the network in your wallet, then try again.',
  notePermitRejected: 'You declined the authorisation. Nothing was paid.',
  noteOperationRejected: 'You declined the payment. Nothing was paid.',
  noteTransferRejected: 'You declined the transfer. Nothing was sent.',
  sendToVault: (amount: string) => `Send ${amount} to your payment account (you pay the network fee)`,
  sendingToVaultTitle: 'Sending to your payment account',
  sendingToVault: (amount: string) => `Confirm the transfer of ${amount} in your wallet; the payment goes on once it is on-chain.`,
  walletAccount: 'Wallet',
  vaultNew: 'created with this payment',
  paymentAccountExplained: 'An account only your wallet controls, for paying invoices without a network fee.',
  balance: 'Balance',
  pay: (amount: string) => `Pay ${amount}`,
  insufficientTitle: 'Not enough funds',
  checkAgain: 'Check again',
  payFromWallet: (amount: string) => `Pay ${amount} from your wallet`,
  fundingTitle: 'Allow your payment account to take the missing amount',
  stepPermit: '2 of 3: allow the invoice to be paid from your payment account',
  requestingPermit: 'Preparing the authorisation…',
  permitTitle: 'Authorise the payment in your wallet',
  timeLeft: (left: string) => `${left} left`,
  preparing: 'Preparing the payment…',
  verifying: 'Checking the payment before you sign…',
  signingTitle: 'Confirm the payment in your wallet',
  submitting: 'Sending the payment…',
  reconciling: 'Checking whether the payment went through…',
  refreshing: 'Checking the invoice…',
  pendingTitle: 'Payment submitted',
  receiptTitle: 'Payment received',
  userOpHash: 'Operation hash',
  txHash: 'Transaction',
  // the payer experience (issue 24): the summary, the steps, addresses (the receipt and the devnet
  // wallet's words are in strings.afterPay.ts)
  summaryLine: 'You pay {amount} to {payee}',
  networkFeeNone: 'network fee: none (sponsored)',
  payeeNameUnconfirmed: 'The recipient\'s name could not be confirmed. Pay only if this address belongs to who you mean to pay.',
  payUnnamedConfirm: 'You are paying an address whose owner could not be confirmed. Check it once more, then confirm.',
  payUnnamed: (amount: string) => `Yes, pay ${amount} to this address`,
  trustChecking: 'Checking this invoice with the payment record…',
  trustChecked: 'Checked: the amount, recipient and due date match the payment record.',
  trustCheckedNoDocument: 'From the blockchain: the amount, recipient and due date. The recipient\'s name is not confirmed.',
  trustDetails: 'What was checked',
  trustDetailsChain: 'Amount, recipient, status and due date: read from the blockchain through this checkout\'s own connection, not taken from the payment service.',
  trustDetailsDocument: 'Invoice details (names and lines): their fingerprint matches the one recorded on the blockchain, and they bill the same amount, token, network and recipient.',
  trustDetailsNoDocument: 'Invoice details: not shown, or not yet matched with the record.',
  stepsLabel: 'Payment steps',
  stepReview: 'Check the payment',
  stepSign: 'Sign in your wallet',
  stepNetwork: 'The network confirms it',
  stepDone: '(done)',
  copy: 'Copy',
  copied: 'Copied',
  copyValue: (label: string, value: string) => `Copy ${label} ${value}`,
  labelAddress: 'address',
  localChain: 'Local test network: no explorer to link to.',
  payingAccount: 'Your payment account',
  errorPageBadLinkTitle: 'This link is not complete',
  errorPageBadLinkBody: 'The address of this page is not a valid invoice link. Open the link you were sent again, or ask the sender for a new one.',
  deadLinkTitle: 'This link does not open this invoice\'s details',
  deadLinkBody: 'It may have expired or been mistyped. Only the on-chain record is shown: ask the sender for a new one.',
  errorPageUnavailableTitle: 'The invoice cannot be shown right now',
  errorPageUnavailableBody: 'The payment service is not answering. Nothing was paid. Try again in a few minutes.',
  errorPageRetry: 'Reload the page',
  permitExpiredTitle: 'The authorisation expired',
  failedOnChainTitle: 'The payment did not go through',
  unsafeTitle: 'Payment stopped for your safety',
  errorTitle: 'The payment did not go through',
  cannotCheckTitle: 'This invoice cannot be checked right now',
  serviceNotFoundTitle: 'The payment service cannot find this invoice',
  documentWithdrawn: 'The payment service\'s copy of this invoice was withdrawn: it contradicts the invoice recorded on the blockchain. The figures shown are the blockchain\'s.',
  mixedScript: (name: string) => `"${name}" mixes letters of different alphabets that look alike, so it may imitate another name. It is not confirmed.`,
  nameLookalike: (name: string) => `"${name}" uses letters that look like Latin ones but are not, so it may imitate another name. It is not confirmed.`,
  nameHidden: (name: string) => `"${name}" contains invisible or formatting characters, shown as [U+…], so it may imitate another name. It is not confirmed.`,
  merchantWords: 'The sender\'s own words (not checked)',

  language: 'Language',
  payOnPhoneTitle: 'Pay on your phone',
  payOnPhoneBody: 'No wallet was found in this browser. Scan this code with your phone\'s camera to open this invoice there and pay it in your wallet app.',
  shareLinkQr: 'QR code of the link to this invoice',
  openInWalletTitle: 'Open in your wallet app',
  openInWalletBody: 'No wallet was found in this browser. Open this invoice in your wallet app and pay it there:',
  openIn: (wallet: string) => `Open in ${wallet}`,
}

/** `afterPay`: the words only the views after Pay read (among them every refusal of the verifiers and
 * the receipt), English's in strings.afterPay.ts (loaded with those views, not with the page); every
 * other catalog has them here, in its own chunk. */
export type Strings = typeof en & { afterPay?: AfterPayStrings }

/** A translation: all of English's words, those after Pay included, so a key missing anywhere fails to
 * compile instead of falling back to English on the payer's screen. */
export type Catalog = Strings & { afterPay: AfterPayStrings }

export type Locale = { strings: Strings; /** A BCP 47 tag for Intl formatting, as the browser gave it. */ tag: string }

export const english: Locale = { strings: en, tag: 'en' }

// One chunk per language, fetched only for the payers who read it: every catalog in the page would
// cost every payer about 4 KB gzip each. In the order of languageCodes after English (a list, not a
// map: its keys would cost every payer bytes; src/ui/catalogs.test.ts checks each loads its own)
const catalogs: (() => Promise<Record<string, Catalog>>)[] = [
  () => import('./strings.es'),
  () => import('./strings.pt-BR'),
  () => import('./strings.fr'),
  () => import('./strings.de'),
  () => import('./strings.it'),
  () => import('./strings.nl'),
  () => import('./strings.pl'),
  () => import('./strings.tr'),
  () => import('./strings.ar'),
  () => import('./strings.hi'),
  () => import('./strings.id'),
  () => import('./strings.vi'),
  () => import('./strings.ja'),
  () => import('./strings.ko'),
  () => import('./strings.zh-CN'),
]

/** The first of the reader's languages the page speaks (src/ui/languages.ts), English otherwise. */
export async function loadLocale(languages: readonly string[]): Promise<Locale> {
  const { language, tag } = negotiateLanguage(languages)
  if (language === 'en') return tag === english.tag ? english : { strings: en, tag }
  // each catalog module exports its one catalog
  return { strings: Object.values(await catalogs[languageCodes.indexOf(language) - 1]!())[0]!, tag }
}
