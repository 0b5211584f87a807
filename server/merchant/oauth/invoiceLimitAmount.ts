import { formatUnits, isAddressEqual, type Address } from 'viem'
import type { Deployment } from '../../../shared/deployment'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { TokenDetails } from '../invoices/tokenDetails'

/** The deployment's token as a person reads its amounts: its symbol, and the decimals that turn the
 * amount typed at consent into the base units the limit is kept and enforced in. */
export type LimitToken = { symbol: string; decimals: number }

/** The token invoices are issued in: where it is, besides how its amounts read. */
export type InvoiceToken = LimitToken & { address: Address }

/** The deployment's token: its symbol and decimals as the chain says them, read once per process
 * (tokenDetailsReader keeps it), else as the deployment names them (`named`) while the chain cannot
 * answer, so a CLI's whoami and the consent page need no chain before anything has read it. The chain
 * first: the built page's file is not the token, and a CLI types amounts with these decimals, so a
 * stale or edited file must not turn 250.00 into a figure a trillion times larger. */
export const invoiceTokenOf = (tokens: TokenDetails, token: Address, named: LimitToken | null = null) => async (): Promise<InvoiceToken> => {
  try {
    return { address: token, ...(await tokens(token)) }
  } catch (error) {
    if (named) return { address: token, ...named }
    throw error
  }
}

/** The symbol and decimals the built pay page's deployment names for the token, read from the chain
 * when it was written; null unless it pins this server's token on this server's chain. */
export function pinnedTokenOf(pinned: PinnedDeployment | null, deployment: Pick<Deployment, 'chainId' | 'token'>): LimitToken | null {
  return pinned && pinned.chainId === deployment.chainId && isAddressEqual(pinned.token, deployment.token) ? { symbol: pinned.tokenSymbol, decimals: pinned.tokenDecimals } : null
}

/** No invoice an agent issues is ever worth more than a billion of the token: above it, a typed
 * limit is a slip of the keyboard (a base-unit figure typed out of habit), not a choice. */
export const mostLimitAmount = 1_000_000_000n

/** What the consent form shows before the person types: 1,000 of the token. */
export const defaultLimitAmount = '1000'

/**
 * The largest invoice as the person typed it ("1000", "1000.50", or "1000,50" as many languages
 * write it) in base units, exactly (bigints, no floating point); null when it is not a positive amount
 * with at most the token's decimals and at most `mostLimitAmount`: no sign, no exponent, no grouping.
 */
export function limitBaseUnits(typed: string, token: LimitToken): bigint | null {
  const match = /^(\d{1,30})(?:[.,](\d+))?$/.exec(typed.trim())
  if (!match) return null
  const fraction = match[2] ?? ''
  if (fraction.length > token.decimals) return null
  const scale = 10n ** BigInt(token.decimals)
  const units = BigInt(match[1]!) * scale + BigInt(fraction.padEnd(token.decimals, '0') || '0')
  return units > 0n && units <= mostLimitAmount * scale ? units : null
}

/** Base units as the amount a person typed and reads: "20 USDC", "1000.5 USDC"; exact, trailing zeros dropped. */
export function limitAmountText(baseUnits: string | bigint, token: LimitToken): string {
  return `${formatUnits(BigInt(baseUnits), token.decimals)} ${token.symbol}`
}
