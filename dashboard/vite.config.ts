import { join } from 'node:path'
import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'
// the config and what it imports carry .ts extensions: Vite's native config loader resolves no others
import { distDir } from '../build/distDir.ts'

/**
 * The merchant dashboard, built apart from the pay page (its own entry, its own chunks) so that
 * nothing of it reaches a payer's download: `npm run build` runs it after the pay page, into
 * dist/dashboard/, which the server serves at /dashboard.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [preact()],
  build: {
    outDir: join(distDir(), 'dashboard'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    modulePreload: false,
  },
})
