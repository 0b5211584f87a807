import type { Address } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { ownedVerifyingPaymasterAbi } from '../contracts/artifacts/OwnedVerifyingPaymaster'
import { mined, type DeployerClients } from './deployerClients'
import { requireDeployerOwns } from './ownership'

/** What the paymaster holds in the EntryPoint, in wei: the deposit pays for sponsored operations; the
 * stake (locked for `unstakeDelaySec` after an unlock) is what bundlers ask of a paymaster. */
export type PaymasterFunding = { deposit: bigint; stake: bigint; unstakeDelaySec: number }

/**
 * Brings the paymaster's deposit and stake up to what is asked, sending only the difference: a run
 * after a funded one sends nothing, and a deposit that sponsored operations have drawn down is topped
 * up. The stake's delay can only grow (the EntryPoint refuses a shorter one). Anyone may deposit; only
 * the paymaster's owner may stake, so once the owner has taken it over, a stake short of what is asked
 * is the owner's to add. Returns the transactions it sent.
 */
export async function fundPaymaster(
  clients: DeployerClients,
  { entryPoint, paymaster }: { entryPoint: Address; paymaster: Address },
  wanted: PaymasterFunding,
): Promise<{ sent: number }> {
  const info = await clients.public.readContract({ address: entryPoint, abi: entryPoint07Abi, functionName: 'getDepositInfo', args: [paymaster] })
  const contract = { address: paymaster, abi: ownedVerifyingPaymasterAbi } as const
  let sent = 0
  if (info.deposit < wanted.deposit) {
    await mined(clients.public, await clients.wallet.writeContract({ ...contract, functionName: 'deposit', value: wanted.deposit - info.deposit }))
    sent += 1
  }
  const unstakeDelaySec = Math.max(wanted.unstakeDelaySec, info.unstakeDelaySec)
  const staked = info.staked && info.stake >= wanted.stake && info.unstakeDelaySec >= wanted.unstakeDelaySec
  if (wanted.stake > 0n && !staked) {
    const topUp = wanted.stake > info.stake ? wanted.stake - info.stake : 0n
    await requireDeployerOwns(clients, paymaster, 'paymaster', `call addStake(${unstakeDelaySec}) on it with ${topUp} wei`)
    await mined(clients.public, await clients.wallet.writeContract({ ...contract, functionName: 'addStake', args: [unstakeDelaySec], value: topUp }))
    sent += 1
  }
  return { sent }
}
