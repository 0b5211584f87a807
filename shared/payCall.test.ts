import { encodeFunctionData } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeCreateVault, encodeCreateVault, FactoryCallError } from './payCall'
import { vaultFactoryAbi } from './vaultFactoryAbi'

const owner = '0x00000000000000000000000000000000000000A1'

describe('decodeCreateVault', () => {
  test('default', () => {
    expect(decodeCreateVault(encodeCreateVault(owner))).toEqual({ owner, salt: 0n })
  })

  test('behavior: a factory call other than createAccount is a FactoryCallError', () => {
    const getAddress = encodeFunctionData({ abi: vaultFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
    expect(() => decodeCreateVault(getAddress)).toThrow(FactoryCallError)
    expect(() => decodeCreateVault(getAddress)).toThrow(expect.objectContaining({ code: 'FACTORY_CALL_UNEXPECTED' }))
  })
})
