import type { Address } from 'viem'
import type { WalletConnection } from '../../src/wallet/wagmiWallets'

/**
 * The owner's account as their wallet reports it, followed for the page's life: one connection serves
 * every operation, but the merchant may switch accounts or networks in the wallet at any time, and a
 * prompt prepared for one account must not be signed, or still be shown, once the wallet is on another.
 * Kept apart from the wallet's code (ownerWallet.ts) so that the views read it without loading wagmi.
 */
let current: WalletConnection = null
const listeners = new Set<(account: WalletConnection) => void>()

/** The account connected now, with its chain; null before a wallet is connected and after it leaves. */
export const connectedOwner = (): WalletConnection => current

/** What the wallet says now (its events, or its answer at sign time): the views following it are told. */
export function ownerAccountIs(account: WalletConnection): void {
  if (account?.owner === current?.owner && account?.chainId === current?.chainId) return
  current = account
  for (const listener of listeners) listener(account)
}

/** Calls `onChange` whenever the wallet's account or chain changes, until the returned function is called. */
export function followOwnerAccount(onChange: (account: WalletConnection) => void): () => void {
  listeners.add(onChange)
  return () => void listeners.delete(onChange)
}

/** A prompt's account is no longer the wallet's (another account, another chain, or none): nothing is signed. */
export class OwnerAccountMoved extends Error {
  override name = 'OwnerAccountMoved'
  readonly prepared: Address
  readonly now: WalletConnection

  constructor(prepared: Address, now: WalletConnection) {
    super(`the wallet is now ${now ? `${now.owner} on chain ${now.chainId}` : 'disconnected'}, not ${prepared} the message was prepared for: nothing was signed`)
    this.prepared = prepared
    this.now = now
  }
}

/** Whether `account` is still `owner` on the chain `chainId`. */
export function stillConnectedAs(account: WalletConnection, owner: Address, chainId: number): boolean {
  return account !== null && account.owner.toLowerCase() === owner.toLowerCase() && account.chainId === chainId
}
