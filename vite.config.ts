import { availableParallelism } from 'node:os'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vitest/config'
// the config and what it imports carry .ts extensions: Vite's native config loader resolves no others
import { confusablesSubset } from './build/confusablesSubset.ts'
import { builtDeploymentFile, distDir } from './build/distDir.ts'
import { inlineStylesheet } from './build/inlineStylesheet.ts'
import { pageDeployment } from './build/pageDeployment.ts'
import { quietLogs } from './build/quietLogs.ts'
import { scriptsAfterPaint } from './build/scriptsAfterPaint.ts'
import { separateBundles } from './build/separateBundles.ts'
import { readPinnedDeployment } from './build/readPinnedDeployment.ts'

// the addresses the widget verifies against are fixed here, at build time, never fetched at run time
const deployment = readPinnedDeployment(process.env.SVC_DEPLOYMENT_FILE || undefined)
// the host-page bridge is built from what the page pins (dist/deployment.json)
const page = pageDeployment(deployment)

/** The tests that need `npm run build`'s output: the browser tests, the size budgets, the first paint. */
const builtTests = ['test/e2e/**/*.test.ts', 'test/size/**/*.test.ts', 'test/devnet/start.test.ts', 'test/devnet/devnetPage.test.ts', 'test/server/payPageFirstPaint.test.ts']

export default defineConfig({
  plugins: [
    preact(),
    confusablesSubset(),
    inlineStylesheet(),
    scriptsAfterPaint(),
    separateBundles([
      { entry: 'src/wallet/walletConnectEntry.ts', name: 'walletconnect', replaces: '@walletconnect/ethereum-provider' },
      { entry: 'src/wallet/devnetWallet.ts', define: '__SVC_DEVNET_WALLET_URL__', name: 'devnet-wallet' },
      // after WalletConnect and the devnet wallet: it loads them by URL
      { entry: 'src/wallet/wagmiWallets.ts', define: '__SVC_WALLET_STACK_URL__', name: 'wallet-stack' },
      // the merchant loader's inline mode (embed/build.ts gives the loader its file name); last, so
      // that it imports the wallets' bundles above
      { entry: 'src/inline/mountInline.tsx', name: 'inline', selfContained: true },
    ]),
    {
      name: 'svc-built-deployment',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: builtDeploymentFile, source: `${JSON.stringify(page, null, 2)}\n` })
      },
    },
  ],
  // the Intl warm-up worker (src/ui/warmIntl.ts) is a module like every other script of the page
  worker: { format: 'es' },
  define: { __SVC_DEPLOYMENT__: JSON.stringify(page) },
  build: {
    outDir: distDir(),
    emptyOutDir: true,
    // the page is served from /pay/:id, so assets are addressed from the root
    assetsDir: 'assets',
    target: 'es2022',
    // No preload links from the bundler: inserting them cost ~20 ms of a phone's main thread (4x CPU,
    // measured) right after the first paint. boot.ts starts the page's chunks itself, side by side, and
    // every chunk the page loads later imports statically only chunks already loaded (a size test
    // holds it), so nothing waits on a chain of requests.
    modulePreload: false,
    // the one script the HTML starts, which imports nothing statically, so that nothing else is fetched
    // before the first paint; with the error class the app and the API both import, 200 bytes that
    // would otherwise be a chunk, and a request after each, of its own
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'boot', test: /src[\\/]boot\.ts|src[\\/]api[\\/]apiError\.ts|preload-helper/ }] } },
      onLog: quietLogs,
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // a payer waits longer than vitest's default second for a page to move on, and a loaded CI
    // machine takes longer than a quiet one: a poll gives up after what a payer would wait
    expect: { poll: { timeout: 10_000, interval: 100 } },
    pool: 'forks',
    // Two files side by side even on two cores (vitest's default there is one): most of a browser
    // file is spent waiting on chromium, anvil and the server, so a second worker fills the other
    // core. On this repository's two-core machine the suite went from about 513 s to about 321 s;
    // a third worker only adds contention (321 s again, and a timeout).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Layers, cheapest first: `unit` is the widget's own code and the code it shares with the server
    // (no chain, no build); `node` starts real chains, databases and servers in-process; `built`
    // serves, drives or weighs the built page and is the only one that builds it. A test file that
    // matches none of them would never run: test/suite.test.ts fails on one.
    projects: [
      // the widget's modules hold no state a test leaves behind (views clean up after each test), so
      // the unit files share one module graph per worker: viem and preact are imported once, not 23 times
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.{ts,tsx}', 'shared/**/*.test.ts'], isolate: false } },
      // likewise: every server, store and devnet a file starts is its own and stopped in its afterAll
      // (metrics registries and loggers are per server), so sharing the module graph saves ~100 s
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.test.{ts,tsx}'], exclude: builtTests, globalSetup: ['test/support/nodeProjectSetup.ts', 'test/support/cliBundlesSetup.ts', 'test/support/packedPackageSetup.ts'], isolate: false },
      },
      // likewise, so that a worker's browser files share the devnet the first of them starts
      // (test/support/workerCheckout.ts) instead of each starting and building its own
      { extends: true, test: { name: 'built', include: builtTests, globalSetup: ['test/support/buildPage.ts', 'test/support/cliBundlesSetup.ts', 'test/support/packedPackageSetup.ts'], isolate: false } },
    ],
  },
})
