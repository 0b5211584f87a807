import { afterAll } from 'vitest'
import { startDevnetRpcBundlerServer } from './rpcBundlerServer'
import { useServer } from './server'

/** The server (its database survives a restart) with the bundler and paymaster reached over
 * JSON-RPC (rpcBundlerServer.ts), which counts every call made to it, for one test file. */
export function useServerWithRpcBundler(overrides: Record<string, string> = {}) {
  let bundler: Awaited<ReturnType<typeof startDevnetRpcBundlerServer>> | undefined
  const ctx = useServer({
    overrides: { SUBMIT_WAIT_MS: '400', ...overrides },
    async beforeServer(devnet) {
      bundler = await startDevnetRpcBundlerServer(devnet)
      return { BUNDLER_URL: bundler.url, PAYMASTER_URL: bundler.url }
    },
  })
  afterAll(async () => {
    await bundler?.stop()
  })
  // a getter on the context itself: the bundler exists only once the tests' beforeAll has run
  return Object.defineProperty(ctx as typeof ctx & { readonly bundler: NonNullable<typeof bundler> }, 'bundler', {
    get() {
      if (!bundler) throw new Error('the bundler starts with the server, before the first test')
      return bundler
    },
  })
}
