/** What the devnet wallet asks the payer before it signs or sends: the typed data in the readable form
 * a wallet shows (domain, kind of message, its fields), or the transaction's fields. */
export type DevnetWalletRequest =
  | { kind: 'sign'; primaryType: string; domain: Record<string, unknown>; message: Record<string, unknown> }
  | { kind: 'send'; transaction: Record<string, unknown> }

/** The event the devnet wallet dispatches on the page's window for each request; the page's prompt
 * (src/ui/widget/DevnetWalletPrompt.tsx) shows it and answers through `respond`. An event, not a
 * shared module: the wallet is a bundle of its own. */
export const devnetWalletRequestEvent = 'svc-devnet-wallet-request'

export type DevnetWalletRequestDetail = { request: DevnetWalletRequest; respond(approved: boolean): void }
