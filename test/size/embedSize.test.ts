import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { initialScripts, staticClosure } from '../../build/pageSize'
import type { EmbedManifest } from '../../embed/build'
import { builtPage } from '../support/builtPage'

// the loader as `npm run build` built it, beside the page (test/support/buildPage.ts)
const distDir = await builtPage()
const embedOutDir = join(distDir, 'embed')
const manifest = JSON.parse(readFileSync(join(embedOutDir, 'manifest.json'), 'utf8')) as EmbedManifest

test('behavior: the script-tag loader stays within 1.5 KB gzip; the wallet bridge loads apart from it, within 20 KB gzip, and the check of paid within 10 KB', () => {
  expect(manifest.gzipBytes).toBeLessThanOrEqual(1536)
  // the bridge verifies every signature itself (the page's own verifiers and chain reads): its budget
  expect(manifest.bridgeGzipBytes).toBeGreaterThan(0)
  expect(manifest.bridgeGzipBytes).toBeLessThanOrEqual(20 * 1024)
  // the host's own reads of the pinned chain for a frame's paid (an RPC client, two reads, a receipt)
  expect(manifest.paidGzipBytes).toBeGreaterThan(0)
  expect(manifest.paidGzipBytes).toBeLessThanOrEqual(10 * 1024)
  expect(manifest.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/)
  const loader = readFileSync(join(embedOutDir, manifest.file), 'utf8')
  expect(loader).not.toContain(manifest.paidFile)
})

test('behavior: everything the loader runs is pinned: the loader holds the kit\'s hash, the kit the bridge\'s, the inline widget\'s and the check of paid\'s', () => {
  const loader = readFileSync(join(embedOutDir, manifest.file), 'utf8')
  const kit = readFileSync(join(embedOutDir, manifest.kitFile))
  expect(loader).toContain(manifest.kitFile)
  expect(loader).toContain(manifest.kitIntegrity)
  expect(manifest.kitIntegrity).toBe(`sha256-${createHash('sha256').update(kit).digest('base64')}`)
  const kitText = kit.toString('utf8')
  for (const [file, bytes, integrity] of [
    [manifest.bridgeFile, readFileSync(join(embedOutDir, manifest.bridgeFile)), manifest.bridgeIntegrity],
    [manifest.paidFile, readFileSync(join(embedOutDir, manifest.paidFile)), manifest.paidIntegrity],
    [manifest.inlineFile, readFileSync(join(embedOutDir, '..', manifest.inlineFile)), manifest.inlineIntegrity],
  ] as const) {
    expect(kitText).toContain(file)
    expect(integrity).toBe(`sha256-${createHash('sha256').update(bytes).digest('base64')}`)
    expect(kitText).toContain(integrity)
  }
})

test('behavior: the inline widget is built with the page but loads apart from it and from the loader', () => {
  const inline = staticClosure(distDir, manifest.inlineFile)
  const initialFiles = new Set(initialScripts(distDir).files.map((file) => file.file))
  expect(manifest.inlineFile).toMatch(/^assets\/inline-[\w-]+\.js$/)
  expect(inline.files.filter((file) => initialFiles.has(file.file))).toEqual([])
  // one file, so that its integrity hash covers all of it
  expect(inline.files).toHaveLength(1)
  expect(readFileSync(join(embedOutDir, manifest.file), 'utf8')).not.toContain(manifest.inlineFile)
})
