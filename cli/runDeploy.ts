import { createPublicClient, http } from 'viem'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { readTokenFacts } from '../server/chain/tokenFacts'
import { deployCheckout, type DeployReport } from '../deploy/deployCheckout'
import { deployerClients } from '../deploy/deployerClients'
import { deploymentBlock } from '../deploy/deploymentBlock'
import { pinnedDeploymentOf, writeDeploymentFile } from '../deploy/deploymentFile'
import { chainEnvironment } from '../deploy/chainEnvironment'
import type { CheckoutDeployResult } from '../deploy/deployCheckout'
import { checkRoles, type DeployCommand, type DeployRoles } from './deployCommand'
import { deployerAccount, type AskPassword } from './deployerAccount'

export type DeployOutcome = {
  pinned: PinnedDeployment
  serverEnvironment: Record<string, string>
  sent: number
  roles: DeployRoles
  ownership: CheckoutDeployResult['ownership']
}

/** Opens the deployer's key and checks the roles against it before anything reaches the chain, then
 * deploys (or finds) everything, pins the token's facts as the chain states them and writes the
 * deployment file the page build reads. */
export async function runDeploy(command: DeployCommand, report: DeployReport, askPassword?: AskPassword): Promise<DeployOutcome> {
  const account = await deployerAccount(command.deployerKey, askPassword)
  const roles = checkRoles(command, account.address)
  const chainId = await createPublicClient({ transport: http(command.rpcUrl) }).getChainId()
  report(`chain ${chainId}, deployer ${account.address}`)
  const clients = deployerClients(command.rpcUrl, chainId, account)
  const { deployment, sent, ownership } = await deployCheckout(
    clients,
    {
      token: command.token,
      paymasterSigner: roles.paymasterSigner,
      owner: roles.owner,
      treasury: roles.treasury,
      retailFeeBps: command.retailFeeBps,
      paymasterFunding: command.paymasterFunding,
    },
    report,
  )
  report(sent === 0 ? 'found everything in place: sent no transaction' : `sent ${sent} transaction${sent === 1 ? '' : 's'}`)
  const registryFromBlock = await deploymentBlock(clients.public, deployment.registry)
  const pinned = pinnedDeploymentOf({
    deployment,
    facts: await readTokenFacts(clients.public, deployment.token, chainId),
    rpcUrls: command.publicRpcUrls,
    registryFromBlock,
    chainName: command.chainName,
    explorerUrl: command.explorerUrl,
  })
  writeDeploymentFile(command.out, pinned)
  report(`wrote ${command.out}: build the page with SVC_DEPLOYMENT_FILE=${command.out} npm run build`)
  return { pinned, serverEnvironment: { ...chainEnvironment(deployment, command.rpcUrl), REGISTRY_FROM_BLOCK: String(registryFromBlock) }, sent, roles, ownership }
}
