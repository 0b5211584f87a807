import { createHash } from 'node:crypto'

/**
 * `policy` with one more style its `style-src` allows: an element's `style` attribute of exactly
 * `style` (CSP 3 'unsafe-hashes' with that value's hash), and no other. The pay page's branding is
 * such an attribute (src/ui/page/BrandScope.tsx): this way it paints with the first response.
 */
export function allowStyleAttribute(policy: string, style: string | undefined): string {
  if (!style) return policy
  const source = `'sha256-${createHash('sha256').update(style).digest('base64')}'`
  return policy
    .split('; ')
    .map((directive) => (directive.startsWith('style-src ') ? `${directive} 'unsafe-hashes' ${source}` : directive))
    .join('; ')
}
