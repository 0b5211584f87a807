import { concat, getContractAddress, parseEther, type Address, type Hex } from 'viem'
import { CodedError } from '../shared/codedError'
import { mined, type DeployerClients } from './deployerClients'

/** Arachnid's deterministic-deployment proxy: CREATE2 with calldata = salt ‖ init code. Its address is
 * the same on every chain because it is deployed by one presigned, chain-agnostic transaction. */
export const deterministicDeployer: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** The proxy's published deployment (github.com/Arachnid/deterministic-deployment-proxy): a pre-EIP-155
 * transaction at gas price 100 gwei and gas 100,000 whose signature nobody holds the key to, so its
 * sender can only ever send this one transaction and the proxy lands at the same address everywhere. */
const presignedDeployment = {
  signer: '0x3fab184622dc19b6109349b94811493bf2a45362' as Address,
  cost: parseEther('0.01'),
  rawTransaction:
    '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222' as Hex,
}

export class DeterministicDeploymentError extends CodedError {
  override name = 'DeterministicDeploymentError'
  readonly code = 'DETERMINISTIC_DEPLOYMENT_FAILED'
}

/** What one step did: `sent` counts the transactions it needed (0 when everything was in place). */
export type Step<T> = { value: T; sent: number }

export async function hasCode(clients: DeployerClients, address: Address): Promise<boolean> {
  const code = await clients.public.getCode({ address })
  return code !== undefined && code !== '0x'
}

/** Puts the proxy at its canonical address where the chain lacks it: funds its one-time signer with
 * exactly the gas the presigned transaction buys, then broadcasts that transaction. A node that only
 * accepts EIP-155 transactions refuses it; then deploy the proxy by the chain's own means. */
export async function ensureDeterministicDeployer(clients: DeployerClients): Promise<Step<Address>> {
  if (await hasCode(clients, deterministicDeployer)) return { value: deterministicDeployer, sent: 0 }
  const { signer, cost, rawTransaction } = presignedDeployment
  let sent = 0
  const balance = await clients.public.getBalance({ address: signer })
  if (balance < cost) {
    await mined(clients.public, await clients.wallet.sendTransaction({ to: signer, value: cost - balance }))
    sent += 1
  }
  await mined(clients.public, await clients.public.sendRawTransaction({ serializedTransaction: rawTransaction }))
  if (!(await hasCode(clients, deterministicDeployer))) throw new DeterministicDeploymentError('the deterministic-deployment proxy did not land at its address')
  return { value: deterministicDeployer, sent: sent + 1 }
}

export function create2Address(salt: Hex, initCode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: deterministicDeployer, salt, bytecode: initCode })
}

/** Deploys `initCode` at its CREATE2 address through the proxy, unless code is already there. */
export async function deployDeterministic(clients: DeployerClients, { salt, initCode }: { salt: Hex; initCode: Hex }): Promise<Step<Address>> {
  const address = create2Address(salt, initCode)
  if (await hasCode(clients, address)) return { value: address, sent: 0 }
  await mined(clients.public, await clients.wallet.sendTransaction({ to: deterministicDeployer, data: concat([salt, initCode]) }))
  if (!(await hasCode(clients, address))) throw new DeterministicDeploymentError(`no contract landed at ${address}: its constructor reverted`)
  return { value: address, sent: 1 }
}
