/** The values of a header with quality weights (Accept-Encoding, Accept-Language; RFC 9110 12.4.2),
 * lower-cased, with their weights; `q=0` means "not acceptable". */
export function qualityValues(header: string | undefined): { value: string; q: number }[] {
  return (header ?? '').split(',').map((part) => {
    const [value = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
    return { value: value.trim(), q: q ? Number(q.slice(2)) || 0 : 1 }
  })
}

/** The languages of an Accept-Language header, most preferred first. */
export function acceptLanguage(header: string | undefined): string[] {
  return qualityValues(header)
    .filter(({ value, q }) => q > 0 && /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(value))
    .sort((a, b) => b.q - a.q)
    .map(({ value }) => value)
}
