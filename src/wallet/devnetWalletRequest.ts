/** What the devnet wallet asks the payer before it signs or sends, as the wallet renders it (the page
 * only shows it): for typed data its ERC-7730 descriptor's intent and lines ("Amount" / "248.00 USDC"),
 * or, where no descriptor applies, every raw field under a warning; a transaction's fields. */
export type DevnetWalletRequest = {
  kind: 'sign' | 'send'
  /** The descriptor's intent ("Pay invoice"); null without one. */
  intent: string | null
  /** The wallet's warning above the fields, by name: 'noDescription' when no descriptor describes the
   * request. The prompt words it in the page's language, as it words the wallet's buttons. */
  warning: 'noDescription' | null
  /** Label and value, in the order shown. */
  rows: [string, string][]
  /** eth_signTypedData_v4's JSON as the wallet was asked it: what a check of the rendering renders. */
  typedData: string | null
}

/** The event the devnet wallet dispatches on the page's window for each request; the page's prompt
 * (src/ui/widget/DevnetWalletPrompt.tsx) shows it and answers through `respond`. An event, not a
 * shared module: the wallet is a bundle of its own. */
export const devnetWalletRequestEvent = 'svc-devnet-wallet-request'

export type DevnetWalletRequestDetail = { request: DevnetWalletRequest; respond(approved: boolean): void }
