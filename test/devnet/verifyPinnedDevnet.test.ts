import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { verifyPinnedDevnet } from '../../devnet/verifyPinnedDevnet'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { useDevnet } from '../support/devnet'

const pinned = readPinnedDeployment()
const devnet = useDevnet()

const written: string[] = []
afterAll(() => written.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function pinnedFile(changes: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pinned-'))
  written.push(dir)
  const path = join(dir, 'deployment.json')
  writeFileSync(path, JSON.stringify({ ...pinned, ...changes }))
  return path
}

describe('verifyPinnedDevnet', () => {
  test('default: the committed devnet deployment matches what the devnet deploys, token facts read from the token', async () => {
    expect(await verifyPinnedDevnet(devnet.deployment, devnet.clients.public)).toEqual(pinned)
    const lowered = { ...devnet.deployment, registry: devnet.deployment.registry.toLowerCase() as `0x${string}` }
    await expect(verifyPinnedDevnet(lowered, devnet.clients.public)).resolves.toEqual(pinned)
  })

  test('behavior: the devnet pins its own RPC for the page it serves', () => {
    expect(devnet.pinned.rpcUrls).toEqual([devnet.anvil.rpcUrl])
    expect(devnet.pinned.tokenDecimals).toBe(6)
  })

  test('behavior: any difference in the addresses fails loudly, naming each field', async () => {
    const moved = { ...devnet.deployment, chainId: 1, paymaster: devnet.deployment.token }
    await expect(verifyPinnedDevnet(moved, devnet.clients.public)).rejects.toThrow(/chainId: 1, pinned 31337[\s\S]*paymaster: deployed at 0x435b/)
    await expect(verifyPinnedDevnet(moved, devnet.clients.public, { compareChainId: false })).rejects.toThrow(/paymaster/)
  })

  test('behavior: pinned decimals, symbol or permit domain the token does not have fail loudly', async () => {
    const path = pinnedFile({ tokenDecimals: 9, tokenSymbol: 'USDT', permitDomain: { name: 'USD Coin', version: '1' } })
    await expect(verifyPinnedDevnet(devnet.deployment, devnet.clients.public, { path })).rejects.toThrow(
      /tokenSymbol: the token says USDC, pinned USDT[\s\S]*tokenDecimals: the token says 6, pinned 9[\s\S]*permitDomain: the token signs as "USD Coin" version "2"/,
    )
  })
})
