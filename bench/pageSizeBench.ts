import { readFileSync } from 'node:fs'
import type { EmbedManifest } from '../embed/build'
import { fileURLToPath } from 'node:url'
import { initialScripts, lazyBundle, type ChunkSet } from '../build/pageSize'

// reads the build `npm run bench:size` has just made
const dist = fileURLToPath(new URL('../dist', import.meta.url))
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`.padStart(9)

function row(name: string, set: ChunkSet) {
  return `${name.padEnd(34)}${kb(set.bytes)}${kb(set.gzip)}  (${set.files.length} file${set.files.length === 1 ? '' : 's'})`
}

console.log(`${'pay page'.padEnd(34)}${'raw'.padStart(9)}${'gzip'.padStart(9)}`)
console.log(row('initial JavaScript (budget 45 KB)', initialScripts(dist)))
console.log(row('WalletConnect, when picked', lazyBundle(dist, 'walletconnect')))
console.log(row('devnet wallet, when picked', lazyBundle(dist, 'devnet-wallet')))

const embed = JSON.parse(readFileSync(new URL('../dist/embed/manifest.json', import.meta.url), 'utf8')) as EmbedManifest
console.log(`${'embed loader (budget 1.5 KB)'.padEnd(34)}${''.padStart(9)}${kb(embed.gzipBytes)}  (${embed.file}, ${embed.integrity})`)
console.log(`${'embed wallet bridge, when needed'.padEnd(34)}${''.padStart(9)}${kb(embed.bridgeGzipBytes)}`)
