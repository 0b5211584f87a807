import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { devnetDir, readDevnetFile } from '../devnet/devnetFile'
import { MerchantCommandError, merchantUsage, runMerchantCommand, type MerchantTarget } from './merchantCommand'
import { asksForHelp, UsageError } from './usageError'
import { oauthCommands, runOAuthCommand } from './oauth/oauthCommand'
import { OAuthCommandError } from './oauth/oauthLogin'
import { credentialsPath, readCredentials } from './oauth/credentialsFile'
import { currentCredentials } from './oauth/oauthSession'

/** `npm run merchant -- <command>`: the merchant's loop (customers, issue, list, share, cancel,
 * payments) against the running devnet, signed with the studio's API key devnet.json names or the
 * sign-in of `login`; without a devnet, against the server signed in to. */
async function main(): Promise<number> {
  const argv = process.argv.slice(2)
  if (asksForHelp(argv) || argv.length === 0) {
    console.log(merchantUsage)
    return argv.length === 0 ? 2 : 0
  }
  const dir = devnetDir()
  if ((oauthCommands as readonly string[]).includes(argv[0]!)) {
    // the OAuth sign-in (SPEC 5.3): any server with --server, else the running devnet's
    const serverUrl = existsSync(join(dir, 'devnet.json')) ? readDevnetFile(dir).serverUrl : undefined
    try {
      for (const line of await runOAuthCommand(argv, serverUrl)) console.log(line)
      return 0
    } catch (error) {
      if (error instanceof UsageError) {
        console.error(`${error.message}\n${merchantUsage}`)
        return 2
      }
      if (!(error instanceof OAuthCommandError)) throw error
      console.error(error.message)
      return 1
    }
  }
  const stored = await readCredentials(credentialsPath())
  const signedIn = async () => (await currentCredentials(credentialsPath())).accessToken
  let target: MerchantTarget
  if (existsSync(join(dir, 'devnet.json'))) {
    const devnet = readDevnetFile(dir)
    // signed in to this server with `login`: its OAuth tokens rather than the devnet's key
    const bearer = stored?.serverUrl === devnet.serverUrl ? signedIn : undefined
    target = { serverUrl: devnet.serverUrl, chain: { rpcUrl: devnet.rpcUrl, token: devnet.contracts.token }, apiKey: devnet.merchant.apiKey, ...(bearer ? { bearer } : {}) }
  } else if (stored) {
    // no devnet here: the server signed in to with `login --server`, and its sign-in alone
    target = { serverUrl: stored.serverUrl, bearer: signedIn }
  } else {
    console.error(`not signed in, and no devnet.json in ${dir}: run login --server <URL>, or start the devnet with \`npm start\` (or set SVC_DEVNET_DIR)`)
    return 1
  }
  let lines: string[]
  try {
    lines = await runMerchantCommand(target, argv)
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${merchantUsage}`)
      return 2
    }
    if (!(error instanceof MerchantCommandError) && !(error instanceof OAuthCommandError)) throw error
    console.error(error.message)
    return 1
  }
  for (const line of lines) console.log(line)
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : ''
    console.error(`${error instanceof Error ? error.message : 'failed'}${code}`)
    process.exit(1)
  },
)
