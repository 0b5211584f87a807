import { readFileSync } from 'node:fs'
import type { EmbedManifest } from '../embed/build'
import { join } from 'node:path'
import { distDir } from '../build/distDir'
import { initialScripts, lazyBundle, renderBlockingScripts, type ChunkSet } from '../build/pageSize'
import { recordBenchOutput } from './recordBenchOutput'

const recording = recordBenchOutput('pageSizeBench')
// reads the build `npm run bench:size` has just made
const dist = distDir()
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`.padStart(9)

function row(name: string, set: ChunkSet) {
  return `${name.padEnd(38)}${kb(set.bytes)}${kb(set.gzip)}  (${set.files.length} file${set.files.length === 1 ? '' : 's'})`
}

console.log(`${'pay page'.padEnd(38)}${'raw'.padStart(9)}${'gzip'.padStart(9)}`)
console.log(row('before the invoice is readable (15 KB)', renderBlockingScripts(dist)))
const initial = initialScripts(dist)
const walletStack = lazyBundle(dist, 'wallet-stack')
console.log(row('  page script, after first paint', initial))
console.log(row('  wallet stack (@wagmi/core), at idle', walletStack))
console.log(row('up to wallet and Pay button (70 KB)', { files: [...initial.files, ...walletStack.files], bytes: initial.bytes + walletStack.bytes, gzip: initial.gzip + walletStack.gzip }))
console.log(row('WalletConnect, when picked', lazyBundle(dist, 'walletconnect')))
console.log(row('devnet wallet, when picked', lazyBundle(dist, 'devnet-wallet')))
console.log(row('verifiers, at the first pay step', lazyBundle(dist, 'verifiers')))

const embed = JSON.parse(readFileSync(join(dist, 'embed', 'manifest.json'), 'utf8')) as EmbedManifest
console.log(`${'embed loader (budget 1.5 KB)'.padEnd(38)}${''.padStart(9)}${kb(embed.gzipBytes)}  (${embed.file}, ${embed.integrity})`)
console.log(`${'embed wallet bridge (budget 20 KB)'.padEnd(38)}${''.padStart(9)}${kb(embed.bridgeGzipBytes)}  (pinned by the kit ${embed.kitFile}, ${embed.kitIntegrity})`)
console.log(`${'embed check of paid (budget 10 KB)'.padEnd(38)}${''.padStart(9)}${kb(embed.paidGzipBytes)}  (${embed.paidFile}, pinned by the kit)`)
// a run that crashed above leaves the last result file as it was
recording.save()
