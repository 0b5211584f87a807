import { describe, expect, test } from 'vitest'
import { checkPinnedDevnet } from '../../server/devnet/pinnedDevnet'
import { readPinnedDeployment } from '../../src/config/readPinnedDeployment'

const pinned = readPinnedDeployment()
const { chainId, entryPoint, token, registry, vaultFactory, paymaster } = pinned
const deployed = { chainId, entryPoint, token, registry, vaultFactory, paymaster }

describe('checkPinnedDevnet', () => {
  test('default: the committed devnet deployment matches what the devnet deploys', () => {
    expect(() => checkPinnedDevnet(deployed)).not.toThrow()
    expect(() => checkPinnedDevnet({ ...deployed, registry: registry.toLowerCase() as `0x${string}` })).not.toThrow()
  })

  test('behavior: any difference fails loudly, naming each field', () => {
    const moved = { ...deployed, chainId: 1, paymaster: token }
    expect(() => checkPinnedDevnet(moved)).toThrow(/chainId: 1, pinned 31337[\s\S]*paymaster: deployed at 0xe7f1/)
    expect(() => checkPinnedDevnet(moved, { compareChainId: false })).toThrow(/paymaster/)
  })
})
