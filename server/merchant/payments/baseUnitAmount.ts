/**
 * A token amount in base units as a decimal string with every decimal the token has: 1234567n with
 * six decimals is "1.234567", 10n ** 12n is "1000000.000000". Computed on bigints, so no amount, however
 * small or large, is rounded: the figure a merchant reads converts back to the exact base units
 * (SPEC 4.16's exports round to two decimals through floating point; ours do not round at all).
 */
export function baseUnitAmount(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals)
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`
}
