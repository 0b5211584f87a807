import { execFileSync } from 'node:child_process'
import { requireSystemTools } from './systemTools'

/**
 * Vitest global setup of the `built` project alone: the page, the merchant loader and their
 * compressed copies, built once before the tests that serve or weigh them. A run that selects none
 * of those (`vitest run test/auth`, `npm run test:unit`) builds nothing.
 */
export default function buildPage() {
  requireSystemTools(['chromium'])
  // vitest sets NODE_ENV=test, which would build Preact's debug tools into the page: build it as shipped
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } })
}
