/** A base-unit integer as a decimal string: 4540000000n at 6 decimals is "4540". Exact (no float) and
 * written out here because viem's formatUnits now brings a whole unit module, about 1 KB gzip of the
 * page. */
export function formatUnits(value: bigint, decimals: number): string {
  const sign = value < 0n ? '-' : ''
  const digits = (value < 0n ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`
}
