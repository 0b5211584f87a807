/**
 * A browser as the OAuth sign-in tests drive one with fetch: one cookie jar, redirects not followed
 * (the test reads each Location, as it must stop at the client's redirect), and forms posted as
 * a browser encodes them.
 */
export function formBrowser() {
  const cookies = new Map<string, string>()
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim())
    }
    return response
  }
  const post = (url: string, form: URLSearchParams) => go(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })
  return { go, post }
}
