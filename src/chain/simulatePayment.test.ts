import { encodeAbiParameters, getAddress, slice, type Address, type Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { describe, expect, test } from 'vitest'
import { testDeployment } from '../verify/preparedPayment.fixture'
import { simulatePayment, type SimulationCall } from './simulatePayment'

/*
 * The decision on what a simulation shows, with the chain's answers stood in for: the eth_calls
 * themselves are run against anvil and a real EntryPoint in test/api/createPayApi.test.ts and the
 * browser tests (test/e2e/trust.e2e.test.ts).
 */

const deployment = testDeployment()
const vault = getAddress('0x00000000000000000000000000000000000000aa')
const account = getAddress('0x00000000000000000000000000000000000000ac')
const merchant = getAddress('0x00000000000000000000000000000000000000bb')
const treasury = getAddress('0x00000000000000000000000000000000000000cc')
const amount = 248_000_000n
const userOp: UserOperation<'0.7'> = {
  sender: vault,
  nonce: 0n,
  callData: '0x',
  callGasLimit: 100_000n,
  verificationGasLimit: 100_000n,
  preVerificationGas: 50_000n,
  maxFeePerGas: 1n,
  maxPriorityFeePerGas: 1n,
  signature: `0x${'ff'.repeat(65)}`,
}

const uint = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])
const executionResult = (balance: bigint, paymasterValidationData = 0n) =>
  encodeAbiParameters(
    [{ type: 'tuple', components: [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bool' }, { type: 'bytes' }] }],
    [[0n, 0n, 1n, paymasterValidationData, true, uint(balance)]],
  )

/** A chain where `before` and `after` are each holder's balance around the operation. */
function chain(before: Record<Address, bigint>, after: Record<Address, bigint> | 'reverts', options: { paymasterValidationData?: bigint } = {}) {
  const calls: { to: Address; overridden: boolean; signature?: Hex }[] = []
  const call: SimulationCall = async ({ to, data }, overrides) => {
    calls.push({ to, overridden: overrides !== undefined })
    if (to === deployment.registry) return encodeAbiParameters([{ type: 'address' }], [treasury])
    if (!overrides) return uint(before[getAddress(slice(data, 16, 36))] ?? 0n)
    expect(to).toBe(deployment.entryPoint)
    expect(Object.keys(overrides)).toEqual([deployment.entryPoint])
    if (after === 'reverts') throw Object.assign(new Error('execution reverted: FailedOp(0, "AA21 didn\'t pay prefund")'), { code: 3 })
    // the balance asked for is the last word of targetCallData: balanceOf(holder)
    const holder = getAddress(slice(data, data.length / 2 - 1 - 64 + 4 + 12, data.length / 2 - 1 - 64 + 4 + 32))
    return executionResult(after[holder] ?? 0n, options.paymasterValidationData)
  }
  return { call, calls }
}

const run = (call: SimulationCall, from: Address | null = null) => simulatePayment({ call, deployment, userOp, vault, account: from, merchant, amount })

describe('simulatePayment', () => {
  test('default: a payment that moves exactly the amount is what it shows: paid, received, fee', async () => {
    const { call, calls } = chain({ [vault]: 300_000_000n }, { [vault]: 52_000_000n, [merchant]: 245_520_000n, [treasury]: 2_480_000n })
    expect(await run(call)).toEqual({ ok: true, effect: { paid: amount, merchantReceives: 245_520_000n, fee: 2_480_000n } })
    expect(calls.filter((entry) => entry.overridden)).toHaveLength(3)
  })

  test('behavior: paying from the wallet counts the account\'s part in what the payer pays', async () => {
    const { call } = chain({ [vault]: 47_000_000n, [account]: 500_000_000n }, { [vault]: 0n, [account]: 299_000_000n, [merchant]: 248_000_000n })
    expect(await run(call, account)).toEqual({ ok: true, effect: { paid: amount, merchantReceives: amount, fee: 0n } })
  })

  test('behavior: an operation that runs without paying (its call out of gas) is refused', async () => {
    const { call } = chain({ [vault]: 300_000_000n }, { [vault]: 300_000_000n })
    expect(await run(call)).toMatchObject({ ok: false, problems: [{ code: 'SIMULATION_NOT_PAID' }] })
  })

  test('behavior: one the EntryPoint refuses, or whose sponsorship signature fails, is refused', async () => {
    expect(await run(chain({ [vault]: 300_000_000n }, 'reverts').call)).toMatchObject({ ok: false, problems: [{ code: 'SIMULATION_REVERTED' }] })
    const badSponsor = chain({ [vault]: 300_000_000n }, { [vault]: 52_000_000n, [merchant]: amount }, { paymasterValidationData: 1n })
    expect(await run(badSponsor.call)).toMatchObject({ ok: false, problems: [{ code: 'SIMULATION_REVERTED' }] })
  })

  test('behavior: one that takes more than the invoice, or pays part of it elsewhere, is refused', async () => {
    const more = chain({ [vault]: 300_000_000n }, { [vault]: 0n, [merchant]: 245_520_000n, [treasury]: 2_480_000n })
    expect(await run(more.call)).toMatchObject({ ok: false, problems: [{ code: 'SIMULATION_UNEXPECTED_EFFECT' }] })
    const elsewhere = chain({ [vault]: 300_000_000n }, { [vault]: 52_000_000n, [merchant]: 200_000_000n, [treasury]: 2_480_000n })
    expect(await run(elsewhere.call)).toMatchObject({ ok: false, problems: [{ code: 'SIMULATION_UNEXPECTED_EFFECT' }] })
  })
})
