import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { buildEmbed, embedOutDir } from '../../embed/build'
import { initialScripts, staticClosure } from '../../build/pageSize'

test('behavior: the script-tag loader stays within 1.5 KB gzip; the wallet bridge loads apart from it', async () => {
  const manifest = await buildEmbed()
  expect(manifest.gzipBytes).toBeLessThanOrEqual(1536)
  expect(manifest.bridgeGzipBytes).toBeGreaterThan(0)
  expect(manifest.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/)
})

test('behavior: the inline widget is built with the page but loads apart from it and from the loader', async () => {
  const manifest = await buildEmbed()
  const distDir = join(embedOutDir, '..')
  const inline = staticClosure(distDir, manifest.inlineFile)
  const initialFiles = new Set(initialScripts(distDir).files.map((file) => file.file))
  expect(manifest.inlineFile).toMatch(/^assets\/inline-[\w-]+\.js$/)
  expect(inline.files.filter((file) => initialFiles.has(file.file))).toEqual([])
  // the loader carries only the widget's name, and imports it in inline mode
  expect(readFileSync(join(embedOutDir, manifest.file), 'utf8')).toContain(manifest.inlineFile)
})
