import { createPublicClient, createWalletClient, http, type Account, type Chain, type Hex, type PublicClient, type Transport, type WalletClient } from 'viem'
import { CodedError } from '../shared/codedError'
import { chainFor } from '../server/chain/chainClient'

export type DeployerClients = { public: PublicClient; wallet: WalletClient<Transport, Chain, Account> }

export class TransactionRevertedError extends CodedError {
  override name = 'TransactionRevertedError'
  readonly code = 'TRANSACTION_REVERTED'
}

/** `pollingInterval`: how often a receipt is looked for; anvil mines on demand, so the devnet asks
 * every 50 ms rather than viem's 4 s. */
export function deployerClients(rpcUrl: string, chainId: number, account: Account, { pollingInterval = 1_000 } = {}): DeployerClients {
  const chain = chainFor(chainId, rpcUrl)
  const transport = http(rpcUrl, { batch: false })
  return {
    public: createPublicClient({ chain, transport, pollingInterval }),
    wallet: createWalletClient({ chain, transport, account, pollingInterval }),
  }
}

export async function mined(client: PublicClient, hash: Hex) {
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success') throw new TransactionRevertedError(`transaction ${hash} reverted`)
  return receipt
}
