import preact from '@preact/preset-vite'
import { defineConfig } from 'vitest/config'
import { readPinnedDeployment } from './src/config/readPinnedDeployment'

// the addresses the widget verifies against are fixed here, at build time, never fetched at run time
const deployment = readPinnedDeployment(process.env.SVC_DEPLOYMENT_FILE || undefined)

export default defineConfig({
  plugins: [preact()],
  define: { __SVC_DEPLOYMENT__: JSON.stringify(deployment) },
  build: {
    outDir: 'dist',
    // the page is served from /pay/:id, so assets are addressed from the root
    assetsDir: 'assets',
    target: 'es2022',
  },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
