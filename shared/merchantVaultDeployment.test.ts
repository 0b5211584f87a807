import { concat, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { decodeMerchantVaultCall, encodeMerchantVaultCall } from './merchantVaultCall'
import { createVaultFactoryData, isDeploymentCallData, readCreateVaultFactoryData, unsignedVaultDeployment } from './merchantVaultDeployment'

const owner = getAddress('0x00000000000000000000000000000000000000a1')
const token = getAddress('0x00000000000000000000000000000000000000b2')
const factory = getAddress('0x00000000000000000000000000000000000000c3')
const vault = getAddress('0x00000000000000000000000000000000000000d4')

describe('unsignedVaultDeployment', () => {
  test("default: the factory's createAccount as initCode, nonce 0, and the vault's withdrawal of nothing to its owner as its call", () => {
    const userOp = unsignedVaultDeployment({ factory, vault, owner, token })
    expect(userOp).toMatchObject({ sender: vault, nonce: '0', factory, signature: '0x' })
    expect(readCreateVaultFactoryData(userOp.factoryData!)).toEqual({ owner, salt: 0n })
    expect(decodeMerchantVaultCall(userOp.callData)).toEqual({ kind: 'Withdrawal', token, amount: 0n, to: owner })
    expect(isDeploymentCallData(userOp.callData, token, owner)).toBe(true)
  })

  test('behavior: factoryData with trailing bytes, or another call, is not a createAccount; a withdrawal of anything, or to anyone else, is not the deployment', () => {
    expect(readCreateVaultFactoryData(concat([createVaultFactoryData(owner, 7n), '0x00']))).toBeNull()
    expect(readCreateVaultFactoryData('0x12345678')).toBeNull()
    expect(readCreateVaultFactoryData(createVaultFactoryData(owner, 7n))).toEqual({ owner, salt: 7n })
    expect(isDeploymentCallData(encodeMerchantVaultCall({ kind: 'Withdrawal', token, amount: 1n, to: owner }), token, owner)).toBe(false)
    expect(isDeploymentCallData(encodeMerchantVaultCall({ kind: 'Withdrawal', token, amount: 0n, to: vault }), token, owner)).toBe(false)
    expect(isDeploymentCallData('0x', token, owner)).toBe(false)
  })
})
