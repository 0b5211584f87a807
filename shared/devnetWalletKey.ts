import type { Hex } from 'viem'

/** What the devnet server hands the page's built-in devnet wallet (GET /devnet/wallet): the demo
 * payer's well-known key and the devnet node the wallet sends everything else to. */
export type DevnetWalletKey = { privateKey: Hex; rpcUrl: string }
