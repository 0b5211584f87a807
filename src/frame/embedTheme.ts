/**
 * The theme a merchant passed to `mount`, as CSS custom properties on the page. Only `--svc-*`
 * properties with plain values are taken: a value cannot smuggle `url()` or a second declaration.
 */
export function embedTheme(raw: string | null): Record<string, string> {
  if (!raw || raw.length > 2_000) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null) return {}
  const theme: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed)) {
    // the colours of warnings and of what was checked are the checkout's own: a framing page may not
    // make a warning as pale as its background, nor restyle a refusal to look like a success
    if (/^--svc-[a-z0-9-]{1,40}$/.test(name) && !/^--svc-color-(warning|danger|success)/.test(name) && typeof value === 'string' && /^[\w\s#%.,()'"-]{1,100}$/.test(value) && !/url\s*\(/i.test(value)) {
      theme[name] = value
    }
  }
  return theme
}
