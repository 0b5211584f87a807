import { concat, encodeDeployData, getContractAddress, getAddress, parseAbi, type Address, type Hex } from 'viem'
import { ownedDeploymentAbi, ownedDeploymentBytecode } from '../contracts/artifacts/OwnedDeployment'
import { verifyingPaymasterV06Abi, verifyingPaymasterV06Bytecode } from '../contracts/artifacts/VerifyingPaymasterV06'
import { mined, type DeployerClients } from './deployerClients'
import { create2Address, DeterministicDeploymentError, deterministicDeployer, hasCode, type Step } from './deterministicDeployer'

const ownableAbi = parseAbi(['function owner() view returns (address)', 'function transferOwnership(address newOwner)'])

/**
 * eth-infinitism's VerifyingPaymaster 0.6.0 on EntryPoint v0.6, at an address that follows from its
 * EntryPoint, its signer and its first owner (the deployer), the same on every chain. Its Ownable
 * (OpenZeppelin 4) makes its creator the owner: created by OwnedDeployment (itself placed through the
 * deterministic-deployment proxy), it is the deployer's from the first block, never the proxy's.
 */
export async function deployPaymasterV06(clients: DeployerClients, { salt, entryPoint, signer }: { salt: Hex; entryPoint: Address; signer: Address }): Promise<Step<Address>> {
  const paymasterInit = encodeDeployData({ abi: verifyingPaymasterV06Abi, bytecode: verifyingPaymasterV06Bytecode, args: [entryPoint, signer] })
  const helperInit = encodeDeployData({ abi: ownedDeploymentAbi, bytecode: ownedDeploymentBytecode, args: [paymasterInit, clients.wallet.account.address] })
  // a contract's first CREATE is at nonce 1 (EIP-161)
  const paymaster = getContractAddress({ opcode: 'CREATE', from: create2Address(salt, helperInit), nonce: 1n })
  if (await hasCode(clients, paymaster)) return { value: paymaster, sent: 0 }
  await mined(clients.public, await clients.wallet.sendTransaction({ to: deterministicDeployer, data: concat([salt, helperInit]) }))
  if (!(await hasCode(clients, paymaster))) throw new DeterministicDeploymentError(`no VerifyingPaymaster v0.6 landed at ${paymaster}`)
  return { value: paymaster, sent: 1 }
}

/**
 * The v0.6 paymaster's Ownable moves in one step (there is no acceptOwnership to call): it passes to
 * `owner` only once `owner` has accepted the v0.7 paymaster, which proves the address is the one meant
 * and can act. Until then the deployer keeps it and a later run of the deploy hands it over.
 */
export async function handOverPaymasterV06(
  clients: DeployerClients,
  { paymasterV06, owner, acceptedElsewhere }: { paymasterV06: Address; owner: Address; acceptedElsewhere: boolean },
): Promise<Step<{ owner: Address; waiting: boolean }>> {
  const current = getAddress(await clients.public.readContract({ address: paymasterV06, abi: ownableAbi, functionName: 'owner' }))
  if (current === getAddress(owner)) return { value: { owner: current, waiting: false }, sent: 0 }
  if (!acceptedElsewhere || current !== clients.wallet.account.address) return { value: { owner: current, waiting: true }, sent: 0 }
  await mined(clients.public, await clients.wallet.writeContract({ address: paymasterV06, abi: ownableAbi, functionName: 'transferOwnership', args: [owner] }))
  return { value: { owner: getAddress(owner), waiting: false }, sent: 1 }
}
