import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { artifactsDir, buildArtifacts } from './compile'

const started = performance.now()
const files = buildArtifacts()
mkdirSync(artifactsDir, { recursive: true })
for (const [file, contents] of Object.entries(files)) writeFileSync(join(artifactsDir, file), contents)
console.log(`wrote ${Object.keys(files).length} artifacts in ${Math.round(performance.now() - started)} ms`)
