import type { Address } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import type { PaymentChain } from '../flow/paymentFlowDeps'
import type { Eip1193Provider } from '../../shared/eip1193'
import { readBlockTime } from './readBlockTime'
import { readInvoice } from './readInvoice'
import { readEntryPointNonce, readPermitNonce } from './readNonces'
import { readSettlement } from './readSettlement'
import { readBalance, readVault } from './readVault'

/**
 * The flow's reads of the pinned chain, through `sources()` in order: the build's pinned RPC first,
 * then the payer's wallet once it is connected on the pinned chain. Never through the payment
 * service: its answers are what these reads check.
 */
export function createChainReader(deployment: PinnedDeployment, sources: () => Eip1193Provider[]): PaymentChain {
  async function read<T>(run: (provider: Eip1193Provider) => Promise<T>): Promise<T> {
    let failure: unknown = new Error('no way to read the chain')
    for (const provider of sources()) {
      try {
        return await run(provider)
      } catch (error) {
        failure = error
      }
    }
    throw failure
  }
  return {
    invoiceOf: (id) => read((provider) => readInvoice(provider, deployment, id)),
    settlementOf: (id) => read((provider) => readSettlement(provider, deployment, id)),
    vaultOf: (owner: Address) => read((provider) => readVault(provider, deployment, owner)),
    balanceOf: (vault) => read((provider) => readBalance(provider, deployment, vault)),
    permitNonceOf: (vault) => read((provider) => readPermitNonce(provider, deployment, vault)),
    entryPointNonceOf: (vault) => read((provider) => readEntryPointNonce(provider, deployment, vault)),
    blockTime: () => read(readBlockTime),
  }
}
