import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { artifactsDir, buildArtifacts } from '../../contracts/compile'

test('behavior: the committed artifacts are exactly what a fresh compile produces', () => {
  const fresh = buildArtifacts()
  const committed = Object.fromEntries(readdirSync(artifactsDir).map((file) => [file, readFileSync(join(artifactsDir, file), 'utf8')]))
  expect(Object.keys(committed).sort()).toEqual(Object.keys(fresh).sort())
  for (const [file, contents] of Object.entries(fresh)) {
    expect(committed[file] === contents, `${file} is stale: run npm run contracts`).toBe(true)
  }
})
