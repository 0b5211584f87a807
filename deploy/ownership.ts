import { getAddress, zeroAddress, type Address } from 'viem'
import { invoiceRegistryAbi } from '../contracts/artifacts/InvoiceRegistry'
import { CodedError } from '../shared/codedError'
import { revertOf } from '../server/chain/chainErrors'
import { mined, type DeployerClients } from './deployerClients'
import type { Step } from './deterministicDeployer'

/** A step needs the owner's power and the deployer no longer has it: the owner must act itself. */
export class NotOwnerError extends CodedError {
  override name = 'NotOwnerError'
  readonly code = 'NOT_OWNER'
}

/** Both contracts are OpenZeppelin's Ownable2Step: owner(), pendingOwner() and transferOwnership(address)
 * are the same functions on each, so the registry's ABI serves for the paymaster too. */
const ownableAbi = invoiceRegistryAbi

export type Ownership = { owner: Address; pendingOwner: Address | undefined }

export async function ownershipOf(clients: DeployerClients, contract: Address): Promise<Ownership> {
  const read = (functionName: 'owner' | 'pendingOwner') => clients.public.readContract({ address: contract, abi: ownableAbi, functionName })
  // a one-step Ownable (the v0.6 paymaster's OpenZeppelin 4) has no pendingOwner: none is pending
  const pending = read('pendingOwner').catch((error: unknown) => {
    if (revertOf(error)) return zeroAddress
    throw error
  })
  const [owner, pendingOwner] = await Promise.all([read('owner'), pending])
  return { owner: getAddress(owner), pendingOwner: pendingOwner === zeroAddress ? undefined : getAddress(pendingOwner) }
}

/** Throws unless the deployer still owns `contract`, saying what its owner has to do instead. */
export async function requireDeployerOwns(clients: DeployerClients, contract: Address, name: string, ownerMust: string): Promise<void> {
  const { owner } = await ownershipOf(clients, contract)
  if (owner !== clients.wallet.account.address) throw new NotOwnerError(`the ${name} ${contract} is owned by ${owner}, not the deployer: its owner must ${ownerMust}`)
}

/**
 * Offers `contract` to `newOwner`, the first of Ownable2Step's two steps: the deployer stays the owner
 * until `newOwner` calls acceptOwnership(), so a mistyped address costs nothing. Rerunnable: sends
 * nothing when `newOwner` already owns it or is already the pending owner.
 */
export async function offerOwnership(clients: DeployerClients, contract: Address, name: string, newOwner: Address): Promise<Step<Ownership>> {
  const now = await ownershipOf(clients, contract)
  if (now.owner === newOwner || now.pendingOwner === newOwner) return { value: now, sent: 0 }
  if (now.owner !== clients.wallet.account.address) {
    throw new NotOwnerError(`the ${name} ${contract} is owned by ${now.owner}, not the deployer: only it can hand the ${name} to --owner ${newOwner}`)
  }
  await mined(clients.public, await clients.wallet.writeContract({ address: contract, abi: ownableAbi, functionName: 'transferOwnership', args: [newOwner] }))
  return { value: { owner: now.owner, pendingOwner: newOwner }, sent: 1 }
}
