import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { signInWithPassword } from '../devnet/passwordSignIn'

const usage = `usage:
  npx tsx cli/devnetSignIn.ts
    signs the demo merchant in to the running devnet (\`npm start\`; its devnet.json in SVC_DEVNET_DIR,
    default .devnet) through its identity provider, as a browser would (authorization code with S256
    PKCE, the provider's login and consent forms), calls POST /v1/auth/login with the access token,
    and prints the token on the first line and the signed-in user on the second. Devnet only.`

async function main(): Promise<number> {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(usage)
    return 0
  }
  const dir = devnetDir()
  if (!existsSync(join(dir, 'devnet.json'))) {
    console.error(`devnetSignIn: no devnet.json in ${dir}: start the devnet with npm start first`)
    return 1
  }
  const file = readDevnetFile(dir)
  if (!file.identity || !file.merchant.login) {
    console.error('devnetSignIn: this devnet has no identity provider: restart it with npm start')
    return 1
  }
  const { accessToken } = await signInWithPassword({ issuer: file.identity.issuer, clientId: file.identity.clientId, redirectUri: file.identity.redirectUri, resource: file.identity.audience, ...file.merchant.login })
  const login = await fetch(`${file.serverUrl}/v1/auth/login`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })
  const body = await login.text()
  if (!login.ok) {
    console.error(`devnetSignIn: POST /v1/auth/login answered ${login.status}: ${body}`)
    return 1
  }
  console.log(accessToken)
  console.log(body)
  return 0
}

process.exit(await main())
