import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { builtDeploymentFile } from '../../build/distDir'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import { builtFor } from '../../devnet/devnetPage'
import { builtPage } from '../support/builtPage'

// as `npm run build` made it, pinned to the default devnet: what `npm start` finds
const dist = await builtPage()
const devnetDeployment = readPinnedDeployment()
const elsewhere = mkdtempSync(join(tmpdir(), 'svc-devnet-page-'))
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }))

describe('the page a devnet serves', () => {
  test('behavior: a devnet on the default RPC serves the page npm run build made instead of building its own, v0.6 contracts and all', () => {
    expect(devnetDeployment.entryPointV06).toBeDefined()
    expect(builtFor(devnetDeployment, dist)).toBe(true)
  })

  test('behavior: a devnet on another RPC does not take that page for its own', () => {
    expect(builtFor({ ...devnetDeployment, rpcUrls: ['http://127.0.0.1:18545'] }, dist)).toBe(false)
  })

  test('behavior: no page, or one half written, is not a page built for the devnet', () => {
    expect(builtFor(devnetDeployment, elsewhere)).toBe(false)
    writeFileSync(join(elsewhere, builtDeploymentFile), '{"chainId": 313')
    expect(builtFor(devnetDeployment, elsewhere)).toBe(false)
  })
})
