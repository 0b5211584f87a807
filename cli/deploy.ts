import { BaseError } from 'viem'
import { CodedError } from '../shared/codedError'
import { deployUsage, parseDeployCommand } from './deployCommand'
import { askOnTerminal } from './deployerAccount'
import { runDeploy } from './runDeploy'
import { asksForHelp, commandOrUsage, UsageError } from './usageError'

/** `npm run deploy -- …`: our contracts on any EVM chain at their CREATE2 addresses (README "Deploy to
 * a chain"). Progress goes to stderr; stdout is the server's environment, ready for an env file. */
async function main(): Promise<number> {
  if (asksForHelp(process.argv.slice(2))) {
    console.log(deployUsage)
    return 0
  }
  const command = commandOrUsage(() => parseDeployCommand(process.argv.slice(2), process.env), deployUsage)
  if (!command) return 2
  // the deployment file is built into a public page: a provider URL with a path or query carries its key
  const { pathname, search } = new URL(command.publicRpcUrls[0]!)
  if (command.publicRpcUrls[0] === command.rpcUrl && (pathname.length > 1 || search)) {
    console.error('warning: the page will ship --rpc-url to every payer; pass --public-rpc-url if this URL carries an API key')
  }
  if ('privateKey' in command.deployerKey && command.deployerKey.from === '--private-key') {
    console.error('warning: --private-key lands in shell history and in ps for every user of this machine: set DEPLOYER_PRIVATE_KEY or pass --keystore <file> instead')
  }
  let outcome
  try {
    outcome = await runDeploy(command, (line) => console.error(line), process.stdin.isTTY && process.stderr.isTTY ? askOnTerminal(process.stdin, process.stderr) : undefined)
  } catch (error) {
    // a role or key refused once the key is open: still nothing sent
    if (!(error instanceof UsageError)) throw error
    console.error(`${error.message}\n${deployUsage}`)
    return 2
  }
  const { serverEnvironment, pinned, ownership, roles } = outcome
  const pending = Object.entries(ownership).filter(([, { pendingOwner }]) => pendingOwner !== undefined && pendingOwner === roles.owner)
  if (pending.length > 0) {
    console.error(`to finish: ${roles.owner} must call acceptOwnership() on ${pending.map(([name]) => `the ${name} (${serverEnvironment[name === 'registry' ? 'REGISTRY_ADDRESS' : 'PAYMASTER_ADDRESS']})`).join(' and ')}; until then the deployer owns ${pending.length === 1 ? 'it' : 'them'}`)
  }
  console.log('# the server environment for this deployment (README "The companion server")')
  for (const [name, value] of Object.entries(serverEnvironment)) console.log(`${name}=${value}`)
  console.log(`# and: PAYMASTER_SIGNER_PRIVATE_KEY (the key of ${command.paymasterSigner}, never the deployer's or the owner's) or PAYMASTER_URL,`)
  console.log('#      BUNDLER_URL or BUNDLER_PRIVATE_KEY, DATABASE_URL, METADATA_ENCRYPTION_KEY, PUBLIC_URL')
  console.log(`# the page: SVC_DEPLOYMENT_FILE=${command.out} npm run build (pins ${pinned.tokenSymbol}, "${pinned.permitDomain.name}" version ${pinned.permitDomain.version})`)
  return 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // a node's or contract's answer, or one of ours; never a stack trace, never the key (no message carries it)
    const message = error instanceof BaseError ? [error.shortMessage, error.details].filter(Boolean).join(' ') : error instanceof CodedError ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : 'failed'
    console.error(`deploy failed: ${message}`)
    process.exit(1)
  },
)
