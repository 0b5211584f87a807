import type { Address, Hex } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { OnchainInvoice } from './readInvoice'
import type { Eip1193Provider } from '../../shared/eip1193'
import { readBlockTime } from './readBlockTime'
import { ChainReadError } from './chainReadError'
import { readInvoice } from './readInvoice'
import { readEntryPointNonce, readPermitNonce } from './readNonces'
import { readFeeBps } from './readFeeBps'
import { readSettlement } from './readSettlement'
import { readBalance, readVault } from './readVault'
import type { SimulationCall } from './simulatePayment'

/** Reads of the pinned chain through the build's pinned RPC (and, for the payer's own balances and
 * nonces, the payer's wallet once it is connected on that chain): never through the server whose
 * answers are being checked. */
export type PaymentChain = {
  /** The pinned registry's invoice; null when it has none with this id. */
  invoiceOf(id: bigint): Promise<OnchainInvoice | null>
  /** The transaction of the invoice's InvoicePaid event; null while there is none. */
  settlementOf(id: bigint): Promise<Hex | null>
  vaultOf(owner: Address): Promise<{ vault: Address; deployed: boolean }>
  /** The token balance of a vault, or of the payer's own account. */
  balanceOf(holder: Address): Promise<bigint>
  /** eth_getCode: '0x' for an account without code (an EOA). */
  codeOf(account: Address): Promise<Hex>
  /** The token's EIP-2612 nonces(owner): of the vault, or of the account that funds it. */
  permitNonceOf(owner: Address): Promise<bigint>
  /** EntryPoint.getNonce(vault, 0). */
  entryPointNonceOf(vault: Address): Promise<bigint>
  /** The registry's feeBpsFor(merchant): the rate a payment made now is charged. */
  feeBpsOf(merchant: Address): Promise<number>
  /** The latest block's timestamp, in seconds. */
  blockTime(): Promise<number>
  /** An eth_call through the pinned RPC alone, with a state override when given: the simulation of an
   * operation before it is signed is the page's own, never the wallet's node's. */
  call: SimulationCall
}

/**
 * The flow's reads of the pinned chain, through `sources()` in order: the build's pinned RPC first,
 * then the payer's wallet once it is connected on the pinned chain. Never through the payment
 * service: its answers are what these reads check.
 */
export function createChainReader(deployment: PinnedDeployment, sources: () => Eip1193Provider[]): PaymentChain {
  /** `pinnedOnly`: the invoice's record and settlement, which the page shows as confirmed, are read
   * through the pinned RPC (the first source) alone: the wallet's node is asked apart, as a second
   * view, never in its place. */
  async function read<T>(run: (provider: Eip1193Provider) => Promise<T>, pinnedOnly = false): Promise<T> {
    let failure: unknown = new ChainReadError('NO_CHAIN_SOURCE', 'no way to read the chain: the reader was given neither an RPC nor a wallet to read it through')
    for (const provider of pinnedOnly ? sources().slice(0, 1) : sources()) {
      try {
        return await run(provider)
      } catch (error) {
        failure = error
      }
    }
    throw failure
  }
  return {
    invoiceOf: (id) => read((provider) => readInvoice(provider, deployment, id), true),
    settlementOf: (id) => read((provider) => readSettlement(provider, deployment, id), true),
    vaultOf: (owner: Address) => read((provider) => readVault(provider, deployment, owner)),
    balanceOf: (vault) => read((provider) => readBalance(provider, deployment, vault)),
    codeOf: (account) => read((provider) => provider.request({ method: 'eth_getCode', params: [account, 'latest'] }) as Promise<Hex>),
    permitNonceOf: (vault) => read((provider) => readPermitNonce(provider, deployment, vault)),
    entryPointNonceOf: (vault) => read((provider) => readEntryPointNonce(provider, deployment, vault)),
    feeBpsOf: (merchant) => read((provider) => readFeeBps(provider, deployment, merchant), true),
    blockTime: () => read(readBlockTime),
    call: (call, overrides) => read((provider) => provider.request({ method: 'eth_call', params: overrides ? [call, 'latest', overrides] : [call, 'latest'] }) as Promise<Hex>, true),
  }
}
