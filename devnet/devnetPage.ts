import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { BuildError } from '../build/buildError'
import { builtDeploymentFile, distDir } from '../build/distDir'
import { pageDeployment } from '../build/pageDeployment'
import type { PinnedDeployment } from '../shared/pinnedDeployment'

const require = createRequire(import.meta.url)
const repo = fileURLToPath(new URL('..', import.meta.url))

function run(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new BuildError('BUILD_STEP_FAILED', `${args.join(' ')} exited with ${code}: its output above says why; fix that and start again`))))
  })
}

/** Whether `dir` holds the page built for `pinned` (what the build writes beside it is what the page
 * pins of it): no page, or one being built, is not it. */
export function builtFor(pinned: PinnedDeployment, dir: string = distDir()): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(readFileSync(join(dir, builtDeploymentFile), 'utf8')), pageDeployment(pinned))
  } catch {
    return false
  }
}

/**
 * The built page the devnet serves. The page reads the chain through the RPC pinned in its build, so
 * it must be built for this devnet's node: `npm run build` pins the default devnet (127.0.0.1:8545),
 * and a devnet on another port (DEVNET_RPC_PORT, or tests on free ports) builds its own page into
 * `dir/dist`, pinned to its own RPC. Returns the directory to serve.
 */
export async function devnetPage(pinned: PinnedDeployment, dir: string): Promise<string> {
  if (builtFor(pinned)) return distDir()
  mkdirSync(dir, { recursive: true })
  const deploymentFile = join(dir, 'deployment.json')
  writeFileSync(deploymentFile, `${JSON.stringify(pinned, null, 2)}\n`)
  // as shipped, whatever the caller's NODE_ENV (tests run under `test`, which would add Preact's debug tools)
  const env = { SVC_DEPLOYMENT_FILE: deploymentFile, SVC_DIST_DIR: join(dir, 'dist'), NODE_ENV: 'production' }
  await run([join(require.resolve('vite/package.json'), '..', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], env)
  // the merchant dashboard, served from the same folder: it pins nothing, but the server serves one build
  await run([join(require.resolve('vite/package.json'), '..', 'bin', 'vite.js'), 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'warn'], env)
  await run(['--import', 'tsx', 'embed/build.ts'], env)
  await run(['--import', 'tsx', 'build/compress.ts'], env)
  return env.SVC_DIST_DIR
}
