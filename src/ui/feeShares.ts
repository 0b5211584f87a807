import type { SimulatedEffect } from '../chain/simulatePayment'

/** The merchant's share and the service fee as the payer reads them: to the cent, adding up to the
 * amount paid as it is shown. */
export type ShownShares = { merchantReceives: bigint; fee: bigint }

/**
 * The chain splits a payment to the base unit (1% of 1,336.50 USDC is 13.365), but the page writes
 * money to the cent everywhere else, and "1.323,135 USDC" reads as a figure in another currency. So
 * the fee is rounded to the token's cent, half up as invoices round, and the merchant's share is what
 * is left of the amount: the two always add up to the amount as shown (13.37 + 1,323.13 = 1,336.50),
 * which "about" next to each would not say. The amount the payer pays is never rounded: it is exactly
 * what leaves their account. Display only; the chain's figures are what the wallet signs.
 */
export function feeShares({ paid, fee }: SimulatedEffect, decimals: number): ShownShares {
  // the token's display precision: two places, as money is written, or fewer if the token has fewer
  const cent = 10n ** BigInt(Math.max(0, decimals - 2))
  const rounded = ((fee + cent / 2n) / cent) * cent
  // a fee rounded up past an amount under a cent would leave the merchant less than nothing
  const shownFee = rounded > paid ? paid : rounded
  return { merchantReceives: paid - shownFee, fee: shownFee }
}
