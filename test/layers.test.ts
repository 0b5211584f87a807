import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * The architecture, as the imports must follow it: a module imports only from its own layer or
 * layers below. Lower numbers are lower layers; a folder not listed takes its parent's layer.
 * Tests, fixtures and benches may import anything.
 */
const layers: Record<string, number> = {
  contracts: 0,
  'src/vite-env.d.ts': 0,
  shared: 1,
  'src/config': 2,
  'src/api': 3,
  'src/chain': 3,
  'src/merchant': 4,
  'src/verify': 4,
  'src/wallet': 5,
  'src/flow': 6,
  'src/frame': 7,
  'src/ui': 8,
  'src/inline': 9,
  'src/main.tsx': 9,
  'src/boot.ts': 9,
  build: 10,
  embed: 10,
  'server/config.ts': 10,
  'server/zodLocale.ts': 10,
  'server/store': 11,
  'server/chain': 11,
  'server/pdf': 11,
  'server/http': 12,
  'server/auth': 13,
  'server/ops': 13,
  'server/payments': 14,
  'server/routes': 15,
  'server/openapi': 16,
  'server/app.ts': 17,
  'server/createServer.ts': 18,
  'server/serve.ts': 19,
  'server/cli': 20,
  deploy: 19,
  devnet: 20,
}

const root = join(import.meta.dirname, '..')
const checked = ['shared', 'src', 'embed', 'server', 'deploy', 'devnet', 'build']

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
