import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * The architecture, as the imports must follow it (docs/architecture.md): a module imports only from
 * its own room or rooms below. Lower numbers are lower rooms; embed/ and build/ share one, since the
 * loader's build step (embed/build.ts) uses the build's plugins, and dashboard/, whose Vite config uses build/. Tests and benches may import anything.
 */
const layers: Record<string, number> = {
  contracts: 0,
  shared: 1,
  src: 2,
  embed: 3,
  build: 3,
  // the merchant's dashboard: browser code like src/, built by its own Vite config, which uses build/
  dashboard: 3,
  server: 4,
  deploy: 5,
  devnet: 6,
  cli: 7,
}

const root = join(import.meta.dirname, '..')
const checked = Object.keys(layers)

function layerOf(path: string): number | undefined {
  for (let at = path; at !== '.'; at = dirname(at)) if (at in layers) return layers[at]
  return undefined
}

// fixtures are held to their folder's layer like the code they stand beside
const isTestCode = (path: string) => /\.test\.tsx?$/.test(path)

function importsOf(file: string): string[] {
  const source = readFileSync(join(root, file), 'utf8')
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!)
  return specifiers.map((specifier) => normalize(join(dirname(file), specifier.replace(/\?.*$/, ''))))
}

describe('the layers', () => {
  test('behavior: no module imports from a layer above its own', () => {
    const upward: string[] = []
    for (const top of checked) {
      for (const entry of readdirSync(join(root, top), { recursive: true, encoding: 'utf8' })) {
        const file = join(top, entry)
        if (!/\.tsx?$/.test(file) || isTestCode(file)) continue
        const own = layerOf(file)
        for (const target of importsOf(file)) {
          const theirs = layerOf(relative(root, join(root, target)))
          if (own === undefined || theirs === undefined) continue
          if (theirs > own) upward.push(`${file} -> ${target}`)
        }
      }
    }
    expect(upward).toEqual([])
  })

  test('behavior: every source folder has a layer', () => {
    const unplaced = checked.flatMap((top) =>
      readdirSync(join(root, top), { recursive: true, encoding: 'utf8' })
        .map((entry) => join(top, entry))
        .filter((file) => /\.tsx?$/.test(file) && !isTestCode(file) && layerOf(file) === undefined),
    )
    expect(unplaced).toEqual([])
  })
})
