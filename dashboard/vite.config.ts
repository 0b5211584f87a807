import { join } from 'node:path'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'
// the config and what it imports carry .ts extensions: Vite's native config loader resolves no others
import { distDir } from '../build/distDir.ts'
import { readPinnedDeployment } from '../build/readPinnedDeployment.ts'
import { builtSeparateBundles } from '../build/separateBundles.ts'

/**
 * The merchant dashboard, built apart from the pay page (its own entry, its own chunks) so that
 * nothing of it reaches a payer's download: `npm run build` runs it after the pay page, into
 * dist/dashboard/, which the server serves at /dashboard.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  // WalletConnect's SDK, which the owner's wallet offers when the deployment names a project id, is
  // the pay page's bundle, built before this page into the same dist and loaded by URL once picked:
  // no second copy of its hundred files, and none of it in the dashboard's first paint
  plugins: [preact(), builtSeparateBundles(distDir(), { '@walletconnect/ethereum-provider': 'walletconnect' })],
  // the owner's wallet checks every message against the chain and contracts the build pins, as the pay
  // page does (the same deployment file); the merchant side's contracts included
  define: { __SVC_DEPLOYMENT__: JSON.stringify(readPinnedDeployment(process.env.SVC_DEPLOYMENT_FILE || undefined)) },
  build: {
    outDir: join(distDir(), 'dashboard'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    modulePreload: false,
  },
})
