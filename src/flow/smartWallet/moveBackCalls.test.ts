import { decodeFunctionData, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { vaultFactoryAbi, vaultSalt } from '../../../shared/vaultFactoryAbi'
import { testDeployment } from '../../verify/preparedPayment.fixture'
import { moveBackCalls } from './moveBackCalls'

const deployment = testDeployment()
const account = '0x5555555555555555555555555555555555555555'
const vault = '0x6666666666666666666666666666666666666666'
const execute = parseAbi(['function execute(address dest, uint256 value, bytes func)'])
const transfer = parseAbi(['function transfer(address to, uint256 value)'])

describe('moveBackCalls', () => {
  test('default: the vault\'s execute transfers its whole balance of the pinned token to the account, and nothing else', () => {
    const calls = moveBackCalls({ deployment, account, stranded: { vault, deployed: true, balance: 200_000_000n } })
    expect(calls.map((call) => [call.to, call.value])).toEqual([[vault, '0x0']])
    const { args } = decodeFunctionData({ abi: execute, data: calls[0]!.data })
    expect(args.slice(0, 2)).toEqual([deployment.token, 0n])
    expect(decodeFunctionData({ abi: transfer, data: args[2] }).args).toEqual([account, 200_000_000n])
  })

  test('behavior: a vault not yet deployed is deployed first by the pinned factory, for this account as owner, at the payers\' salt', () => {
    const calls = moveBackCalls({ deployment, account, stranded: { vault, deployed: false, balance: 1n } })
    expect(calls.map((call) => call.to)).toEqual([deployment.vaultFactory, vault])
    expect(decodeFunctionData({ abi: vaultFactoryAbi, data: calls[0]!.data })).toEqual({ functionName: 'createAccount', args: [account, vaultSalt] })
    expect(decodeFunctionData({ abi: transfer, data: decodeFunctionData({ abi: execute, data: calls[1]!.data }).args[2] }).args).toEqual([account, 1n])
  })
})
