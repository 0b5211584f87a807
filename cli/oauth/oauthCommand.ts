import { credentialsPath } from './credentialsFile'
import { login, openInBrowser } from './oauthLogin'
import { logout, whoami } from './oauthSession'
import { parseFlags, UsageError } from '../usageError'

export const oauthCommands = ['login', 'logout', 'whoami'] as const

export const oauthUsage = `  login [--server <URL>] [--no-browser]
      signs in through the browser (OAuth with PKCE, a loopback redirect on 127.0.0.1) and keeps the
      tokens in the OS's config folder (mode 0600); headless, open the printed URL on any machine
      whose browser can reach the server
  logout                           revokes the sign-in at the server and deletes the tokens
  whoami [--json]                  who the sign-in acts as: user, studio, network, scopes, expiry
                                   (the token is refreshed silently when it has expired)`

/** login, logout and whoami; `serverUrl` is devnet.json's where --server is not given. */
export async function runOAuthCommand(argv: readonly string[], serverUrl: string | undefined, print: (line: string) => void = console.log): Promise<string[]> {
  const [command, ...rest] = argv
  const path = credentialsPath()
  if (command === 'login') {
    const values = parseFlags(rest, { server: { type: 'string' }, 'no-browser': { type: 'boolean' } })
    const server = (values.server as string | undefined) ?? serverUrl
    if (!server) throw new UsageError('--server: missing: the server to sign in to, e.g. https://checkout.example.com (or start the devnet)')
    const signedIn = await login({
      serverUrl: server,
      credentialsPath: path,
      showUrl: (url) => {
        print(`Open this address to sign in and approve access:\n  ${url}`)
        if (!values['no-browser']) openInBrowser(url)
      },
    })
    return [`signed in to ${signedIn.serverUrl} with ${signedIn.scope || 'no scopes'}; tokens in ${path}`]
  }
  if (command === 'logout') return [(await logout(path)) ? 'signed out: the sign-in is revoked and its tokens deleted' : 'not signed in']
  const values = parseFlags(rest, { json: { type: 'boolean' } })
  return whoami(path, Date.now, { json: values.json === true })
}
