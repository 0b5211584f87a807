import type { Address, Hex } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { decodeResult, encodeCall } from '../../shared/abiCall'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { UnsafeProblem } from '../verify/unsafeProblem'

/** An eth_call through the pinned RPC alone, with a geth-style state override (address → code). */
export type SimulationCall = (call: { to: Address; data: Hex }, overrides?: Record<Address, { code: Hex }>) => Promise<Hex>

/** What the operation would move, as the chain computed it: out of the payer's vault and account
 * together, into the merchant's vault, and the registry's fee to its treasury. */
export type SimulatedEffect = { paid: bigint; merchantReceives: bigint; fee: bigint }

export type SimulatePaymentParameters = {
  call: SimulationCall
  deployment: PinnedDeployment
  /** The verified operation, unsigned: the simulation runs it without its owner's signature. */
  userOp: UserOperation<'0.7'>
  vault: Address
  /** The wallet account, when the operation also takes from it (paying from the wallet). */
  account: Address | null
  merchant: Address
  amount: bigint
}

export type SimulatePaymentReturnType = { ok: true; effect: SimulatedEffect } | { ok: false; problems: UnsafeProblem[] }

const address = { type: 'address' } as const
const balanceOf = { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'holder', ...address }], outputs: [{ name: '', type: 'uint256' }] } as const
const treasury = { type: 'function', name: 'treasury', stateMutability: 'view', inputs: [], outputs: [{ name: '', ...address }] } as const
const simulateHandleOp = {
  type: 'function',
  name: 'simulateHandleOp',
  stateMutability: 'nonpayable',
  inputs: [
    {
      name: 'op',
      type: 'tuple',
      components: [
        { name: 'sender', ...address },
        { name: 'nonce', type: 'uint256' },
        { name: 'initCode', type: 'bytes' },
        { name: 'callData', type: 'bytes' },
        { name: 'accountGasLimits', type: 'bytes32' },
        { name: 'preVerificationGas', type: 'uint256' },
        { name: 'gasFees', type: 'bytes32' },
        { name: 'paymasterAndData', type: 'bytes' },
        { name: 'signature', type: 'bytes' },
      ],
    },
    { name: 'target', ...address },
    { name: 'targetCallData', type: 'bytes' },
  ],
  outputs: [
    {
      name: '',
      type: 'tuple',
      components: [
        { name: 'preOpGas', type: 'uint256' },
        { name: 'paid', type: 'uint256' },
        { name: 'accountValidationData', type: 'uint256' },
        { name: 'paymasterValidationData', type: 'uint256' },
        { name: 'targetSuccess', type: 'bool' },
        { name: 'targetResult', type: 'bytes' },
      ],
    },
  ],
} as const

/**
 * Runs the exact operation the payer is about to sign through the pinned RPC, as bundlers do: one
 * eth_call to the EntryPoint's address with EntryPointSimulations' code placed there by a state
 * override, so the EntryPoint's own storage (nonces, deposits) and every other contract are the
 * chain's. simulateHandleOp validates the operation (an unsigned one fails only its signature check,
 * which it reports rather than reverts on), executes it, then reads one token balance as its
 * `target` call; each balance the payment touches is read that way, after, and plainly before.
 * eth_call with a state override is what a generic RPC supports (geth, erigon, nethermind, anvil and
 * the hosted providers); eth_simulateV1 would give the Transfer logs, but few endpoints answer it.
 *
 * The payment is safe to sign only if it moves exactly `amount` out of the payer's vault and account
 * together and exactly `amount` into the merchant's vault and the treasury together, and nothing
 * else of theirs. An operation whose simulation reverts, or that runs without paying (its call out of
 * gas, say), is refused.
 */
export async function simulatePayment(p: SimulatePaymentParameters): Promise<SimulatePaymentReturnType> {
  const { call, deployment, userOp, vault, account, merchant, amount } = p
  const { entryPointSimulationsCode } = await import('./entryPointSimulationsCode')
  const fee = decodeResult(treasury, await call({ to: deployment.registry, data: encodeCall(treasury, []) }))
  const holders = [vault, merchant, fee, ...(account ? [account] : [])]
  const op = toPackedUserOperation({ ...userOp, signature: '0x' })
  const balance = async (holder: Address, after: boolean): Promise<bigint | null> => {
    const read = encodeCall(balanceOf, [holder])
    if (!after) return decodeResult(balanceOf, await call({ to: deployment.token, data: read }))
    const data = encodeCall(simulateHandleOp, [op, deployment.token, read])
    let result: Hex
    try {
      result = await call({ to: deployment.entryPoint, data }, { [deployment.entryPoint]: { code: entryPointSimulationsCode } })
    } catch {
      // the EntryPoint refused it (a FailedOp: the vault, its nonce or the sponsorship): it would not run
      return null
    }
    const execution = decodeResult(simulateHandleOp, result)
    // the sponsorship's signature must hold; the owner's is not there yet, so the account's may not
    if (BigInt.asUintN(160, execution.paymasterValidationData) === 1n || !execution.targetSuccess) return null
    return decodeResult(balanceOf, execution.targetResult)
  }
  const before = await Promise.all(holders.map((holder) => balance(holder, false)))
  const after = await Promise.all(holders.map((holder) => balance(holder, true)))
  if (after.some((value) => value === null)) {
    return { ok: false, problems: [{ code: 'SIMULATION_REVERTED', message: 'Simulated on the blockchain, the payment would be refused: it could never run.' }] }
  }
  const change = (index: number) => after[index]! - before[index]!
  const paid = -change(0) - (account ? change(3) : 0n)
  const merchantReceives = change(1)
  const feeReceived = change(2)
  if (paid === 0n && merchantReceives === 0n) {
    return { ok: false, problems: [{ code: 'SIMULATION_NOT_PAID', message: 'Simulated on the blockchain, the payment would run without paying the invoice.' }] }
  }
  if (paid !== amount || merchantReceives + feeReceived !== amount || merchantReceives <= 0n || feeReceived < 0n) {
    return {
      ok: false,
      problems: [
        {
          code: 'SIMULATION_UNEXPECTED_EFFECT',
          message: `Simulated on the blockchain, the payment would take ${paid} and pay the merchant ${merchantReceives} and fees ${feeReceived} (base units), not ${amount}.`,
        },
      ],
    }
  }
  return { ok: true, effect: { paid, merchantReceives, fee: feeReceived } }
}
