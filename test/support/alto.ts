import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Address } from 'viem'
import { devnetRoles } from '../../devnet/deploy'
import { privateKeyOf } from '../../devnet/devnetConfig'
import { startLoopbackChild } from './loopbackChild'

const require = createRequire(import.meta.url)
const startTimeoutMs = 30_000

export type Alto = {
  url: string
  /** How many requests of each JSON-RPC method alto has answered, from its own metrics. */
  calls(): Promise<Record<string, number>>
  stop(): Promise<void>
}

/** alto's CLI as its package.json declares it: the package exports no subpath to resolve it by. */
function altoCli(): string {
  let dir = dirname(require.resolve('@pimlico/alto'))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; bin?: Record<string, string> }
      if (pkg.name === '@pimlico/alto' && pkg.bin?.alto) return join(dir, pkg.bin.alto)
    } catch {
      // not the package root yet
    }
    if (dirname(dir) === dir) throw new Error('@pimlico/alto is installed without its CLI')
    dir = dirname(dir)
  }
}

async function rpc(url: string, method: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  })
  return ((await response.json()) as { result?: unknown }).result
}

/** Prometheus text: `alto_requests_total{…,rpc_method="eth_sendUserOperation",…} 2`, summed per method. */
function countsByMethod(metrics: string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const match of metrics.matchAll(/^alto_requests_total\{[^}]*rpc_method="([^"]+)"[^}]*\} (\d+)/gm)) {
    const [, method, count] = match as unknown as [string, string, string]
    counts[method] = (counts[method] ?? 0) + Number(count)
  }
  return counts
}

/**
 * The ERC-4337 bundler @pimlico/alto against a devnet, on a free 127.0.0.1 port, signing with its own
 * devnet accounts. Resolves once it answers eth_supportedEntryPoints with the EntryPoint.
 */
export async function startAlto({ rpcUrl, entryPoint }: { rpcUrl: string; entryPoint: Address }): Promise<Alto> {
  const cli = altoCli()
  const args = [
    cli,
    ...['--entrypoints', entryPoint, '--rpc-url', rpcUrl, '--port', '0'],
    ...['--executor-private-keys', privateKeyOf(devnetRoles.externalBundlerExecutor)],
    ...['--utility-private-key', privateKeyOf(devnetRoles.externalBundlerUtility)],
    // safe mode traces validation with a JavaScript tracer (debug_traceCall), which anvil does not run
    ...['--safe-mode', 'false', '--log-level', 'warn'],
  ]
  const alto = await startLoopbackChild({
    name: 'alto',
    args,
    cwd: dirname(cli),
    timeoutMs: startTimeoutMs,
    // listening comes first; answering needs its simulation contracts deployed
    async ready(url, child) {
      const deadline = Date.now() + startTimeoutMs
      for (;;) {
        const supported = await rpc(url, 'eth_supportedEntryPoints').catch(() => undefined)
        if (Array.isArray(supported) && supported.some((address) => String(address).toLowerCase() === entryPoint.toLowerCase())) return
        if (Date.now() > deadline || child.exitCode !== null) throw new Error('alto did not answer eth_supportedEntryPoints')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
  })
  return {
    url: alto.url,
    async calls() {
      return countsByMethod(await (await fetch(`${alto.url}/metrics`)).text())
    },
    stop: alto.stop,
  }
}
