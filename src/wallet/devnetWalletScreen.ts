import { decodeFunctionResult, encodeFunctionData, getAddress, getContractAddress, isAddress, type Address, type Hex } from 'viem'
import payment from '../../clear-signing/eip712-svc-checkout-Payment.json'
import permit from '../../clear-signing/eip712-svc-checkout-devnet-usdc-Permit.json'
import { bindDescriptor, renderDescriptor, type Descriptor, type TypedDataRequest, type WalletKnowledge } from '../../shared/clearSigning/renderDescriptor'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { vaultFactoryAbi, vaultSalt } from '../../shared/vaultFactoryAbi'
import { formatMoment, formatTokenAmount } from '../ui/format'
import type { DevnetWalletRequest } from './devnetWalletRequest'

/** The descriptors the devnet wallet knows, as a clear-signing wallet holds its registry's: the
 * vault's Payment and the devnet token's Permit. Bundled into the devnet wallet's own build only. */
export const devnetDescriptors = [payment, permit] as unknown as readonly Descriptor[]

/** ERC-1967's implementation slot: keccak256('eip1967.proxy.implementation') - 1. */
const implementationSlot: Hex = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

type Node = (method: string, params?: readonly unknown[]) => Promise<unknown>

/** The vault implementation `address` proxies to: its ERC-1967 slot once deployed, or, for the payer's
 * vault not yet deployed, the implementation the pinned factory deploys it with (the factory's first
 * CREATE). Undefined for anything else, or when the node does not answer. */
export async function readImplementation(node: Node, deployment: Pick<PinnedDeployment, 'vaultFactory'>, from: Address, address: Address): Promise<Address | undefined> {
  try {
    const slot = (await node('eth_getStorageAt', [address, implementationSlot, 'latest'])) as Hex
    if (BigInt(slot) !== 0n) return getAddress(`0x${slot.slice(-40)}`)
    const data = encodeFunctionData({ abi: vaultFactoryAbi, functionName: 'getAddress', args: [from, vaultSalt] })
    const answer = (await node('eth_call', [{ to: deployment.vaultFactory, data }, 'latest'])) as Hex
    if (decodeFunctionResult({ abi: vaultFactoryAbi, functionName: 'getAddress', data: answer }) !== address) return undefined
    return getContractAddress({ from: getAddress(deployment.vaultFactory), nonce: 1n })
  } catch {
    return undefined
  }
}

/** What the devnet wallet asks the payer about an eth_signTypedData_v4 request: the lines of the
 * descriptor that applies to it, rendered as a clear-signing wallet renders them with its amounts and
 * moments written in the page's language (`tag`, the tag the page formats with), or every raw field
 * with a warning when none applies. */
export async function describeSignature(
  typedData: string,
  deployment: Pick<PinnedDeployment, 'chainId' | 'token' | 'tokenSymbol' | 'tokenDecimals' | 'vaultFactory'>,
  from: Address,
  node: Node,
  tag: string,
): Promise<DevnetWalletRequest> {
  const request = JSON.parse(typedData) as TypedDataRequest
  const knowledge: WalletKnowledge = {
    tokens: [{ chainId: deployment.chainId, address: getAddress(deployment.token), ticker: deployment.tokenSymbol, decimals: deployment.tokenDecimals }],
    from,
    ...devnetWalletWriting(tag),
  }
  let applies = devnetDescriptors.find((descriptor) => 'key' in bindDescriptor(descriptor, request, knowledge))
  const contract = request.domain.verifyingContract
  if (!applies && typeof contract === 'string' && isAddress(contract, { strict: false })) {
    // a vault is bound through the implementation it proxies to: read only when nothing bound directly
    const implementation = await readImplementation(node, deployment, from, getAddress(contract))
    if (implementation) {
      knowledge.implementationOf = (chainId, address) => (chainId === deployment.chainId && address === getAddress(contract) ? implementation : undefined)
      applies = devnetDescriptors.find((descriptor) => 'key' in bindDescriptor(descriptor, request, knowledge))
    }
  }
  if (applies) {
    try {
      const screen = renderDescriptor(applies, request, knowledge)
      return { kind: 'sign', intent: screen.intent, warning: null, rows: screen.lines.map(labelAndValue), typedData }
    } catch {
      // a value the descriptor forbids (a mustBe rule) or cannot format: shown raw, with the warning
    }
  }
  const raw = [...Object.entries(request.domain).map(([name, value]) => [`domain.${name}`, value] as const), ['type', request.primaryType] as const, ...Object.entries(request.message)]
  return { kind: 'sign', intent: null, warning: 'noDescription', rows: raw.map(([name, value]) => [name, shown(value)]), typedData }
}

/** How the devnet wallet writes a moment and an amount on a page that formats with `tag`: as that
 * page writes the same deadline ("28.11.2026, 06:37" in German, the browser's time zone) and the same
 * money ("248,00 USDC", to the token's last decimal, never rounded), so that the payer compares like
 * with like rather than a UTC timestamp with a local time, or "248" with "248.00". The descriptor's
 * labels and intent stay its own words, as a real wallet shows them. */
export function devnetWalletWriting(tag: string): Required<Pick<WalletKnowledge, 'formatDate' | 'formatAmount'>> {
  return {
    formatDate: (seconds) => formatMoment(seconds * 1000, tag),
    formatAmount: (amount, { ticker, decimals }) => formatTokenAmount(amount, { symbol: ticker, decimals }, tag),
  }
}

/** A transaction, field by field: no descriptor describes calls here. */
export function describeTransaction(transaction: Record<string, unknown>): DevnetWalletRequest {
  return { kind: 'send', intent: null, warning: null, rows: Object.entries(transaction).map(([name, value]) => [name, shown(value)]), typedData: null }
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** "Label: value", the renderer's line, back to its two parts. */
function labelAndValue(line: string): [string, string] {
  const at = line.indexOf(': ')
  return [line.slice(0, at), line.slice(at + 2)]
}
