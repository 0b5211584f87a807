import { getAbiItem, type Address, type Hex, type PublicClient } from 'viem'
import { entryPointAbi } from '../../../contracts/artifacts/EntryPoint'
import { stablecoinAbi } from '../../../contracts/artifacts/Stablecoin'

/** One thing the vault did or had done to it, as the chain's logs say. */
export type VaultActivity =
  | { kind: 'token_transfer'; direction: 'in' | 'out'; from: Address; to: Address; token: Address; amount: bigint; place: LogPlace }
  | { kind: 'user_operation'; userOpHash: Hex; paymaster: Address; nonce: bigint; success: boolean; actualGasCost: bigint; actualGasUsed: bigint; place: LogPlace }

export type LogPlace = { blockNumber: bigint; logIndex: number; transactionHash: Hex }

export type VaultActivityChain = { client: PublicClient; token: Address; entryPoint: Address; fromBlock: bigint }

const transfer = getAbiItem({ abi: stablecoinAbi, name: 'Transfer' })
const userOperationEvent = getAbiItem({ abi: entryPointAbi, name: 'UserOperationEvent' })

/** Blocks per eth_getLogs: the bound most RPC providers put on one query. */
const blocksPerQuery = 10_000n

const placeOf = (log: { blockNumber: bigint; logIndex: number; transactionHash: Hex }): LogPlace => ({
  blockNumber: log.blockNumber,
  logIndex: log.logIndex,
  transactionHash: log.transactionHash,
})

/**
 * The vault's own activity read from the chain, newest first (SPEC 2.13 without a transaction
 * service): the deployment token's transfers into and out of it (payments' net, refunds,
 * withdrawals) and the EntryPoint's UserOperationEvents whose sender it is (its issue, cancel,
 * refund and withdrawal operations, with their gas). Read from REGISTRY_FROM_BLOCK to the head in
 * ranges of 10,000 blocks on every call: complete, and on a long-lived chain as slow as those ranges
 * are many. Native-token movements are not logs and are not listed.
 */
export async function readVaultActivity(chain: VaultActivityChain, vault: Address): Promise<{ items: VaultActivity[]; headBlock: bigint }> {
  const { client } = chain
  const headBlock = await client.getBlockNumber({ cacheTime: 0 })
  const items: VaultActivity[] = []
  for (let from = chain.fromBlock; from <= headBlock; from += blocksPerQuery) {
    const to = from + blocksPerQuery - 1n < headBlock ? from + blocksPerQuery - 1n : headBlock
    const range = { fromBlock: from, toBlock: to, strict: true } as const
    const [incoming, outgoing, operations] = await Promise.all([
      client.getLogs({ address: chain.token, event: transfer, args: { to: vault }, ...range }),
      client.getLogs({ address: chain.token, event: transfer, args: { from: vault }, ...range }),
      client.getLogs({ address: chain.entryPoint, event: userOperationEvent, args: { sender: vault }, ...range }),
    ])
    for (const log of incoming) items.push({ kind: 'token_transfer', direction: 'in', from: log.args.from, to: log.args.to, token: chain.token, amount: log.args.value, place: placeOf(log) })
    // a transfer to itself is one movement, listed once (as incoming)
    for (const log of outgoing) {
      if (log.args.to.toLowerCase() === vault.toLowerCase()) continue
      items.push({ kind: 'token_transfer', direction: 'out', from: log.args.from, to: log.args.to, token: chain.token, amount: log.args.value, place: placeOf(log) })
    }
    for (const log of operations) {
      const { userOpHash, paymaster, nonce, success, actualGasCost, actualGasUsed } = log.args
      items.push({ kind: 'user_operation', userOpHash, paymaster, nonce, success, actualGasCost, actualGasUsed, place: placeOf(log) })
    }
  }
  items.sort((a, b) => (a.place.blockNumber === b.place.blockNumber ? b.place.logIndex - a.place.logIndex : a.place.blockNumber < b.place.blockNumber ? 1 : -1))
  return { items, headBlock }
}
