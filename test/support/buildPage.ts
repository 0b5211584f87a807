import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { BuildError } from '../../build/buildError'
import { stopNotedClusters } from './postgresCluster'
import { stopUnlessSystemTools } from './systemTools'

/** What a file that reads dist/ leaves beside the build's status to have it started (builtPage). */
export const wantedFile = 'build-wanted'

export const buildFailed = (code: number | null, output: string) => new BuildError('BUILD_STEP_FAILED', `\`npm run build\` failed (exit ${code}):\n${output}`)

/**
 * Vitest global setup of the `built` project alone: the page, the merchant loader and their
 * compressed copies (`npm run build`), built once for the tests that serve or weigh them. The build
 * runs beside the tests rather than before them: the browser tests serve a page their worker's
 * devnet builds for its own chain (test/support/workerCheckout.ts), and the files that read dist/
 * wait for it (builtPage). A run that selects none of the `built` files (`vitest run test/auth`,
 * `npm run test:unit`) builds nothing. The teardown stops the devnets the workers shared among their
 * browser tests and the PostgreSQL clusters those stored on.
 */
export default async function buildPage(project: TestProject) {
  if (!(await stopUnlessSystemTools(project, ['browser', 'postgresql']))) return
  const slots = mkdtempSync(join(tmpdir(), 'svc-worker-checkouts-'))
  const status = join(slots, 'build-status.json')
  project.provide('checkoutSlotsDir', slots)
  project.provide('builtPageStatus', status)
  let output = ''
  let built: Promise<number | null> | undefined
  const startBuild = () => {
    // vitest sets NODE_ENV=test, which would build Preact's debug tools into the page: build it as shipped
    const build = spawn('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } })
    build.stdout.on('data', (chunk) => (output += chunk))
    build.stderr.on('data', (chunk) => (output += chunk))
    return new Promise<number | null>((resolve) => {
      const done = (code: number | null, error?: Error) => {
        // written whole, then renamed: a reader never sees half of it
        writeFileSync(`${status}.tmp`, JSON.stringify({ code, output: error ? `${output}\n${error.message}` : output }))
        renameSync(`${status}.tmp`, status)
        resolve(code)
      }
      build.once('error', (error) => done(null, error))
      build.once('close', (code) => done(code))
    })
  }
  // Started once the first worker's devnet is up (its page built: workerCheckout notes it here), or
  // once a file asks for dist/ (builtPage): at the head of the run it would be a third build on two
  // cores, delaying the devnets every browser test waits for; later it runs beside the tests.
  const watch = setInterval(() => {
    if (readdirSync(slots).some((name) => name.startsWith('worker-') || name === wantedFile)) {
      clearInterval(watch)
      built = startBuild()
    }
  }, 100).unref()
  return async () => {
    clearInterval(watch)
    // a run shorter than the build waits for it rather than leave dist/ half written
    const code = built ? await built : 0
    // a failed build fails the run even when no file that reads dist/ was selected
    const failure = code === 0 ? undefined : buildFailed(code, output)
    for (const name of readdirSync(slots).filter((name) => name.startsWith('worker-'))) {
      const { anvilPid, dir } = JSON.parse(readFileSync(join(slots, name), 'utf8')) as { anvilPid?: number; dir: string }
      try {
        if (anvilPid) process.kill(anvilPid, 'SIGTERM')
      } catch {
        // already gone with its worker
      }
      rmSync(dir, { recursive: true, force: true })
    }
    await stopNotedClusters(slots)
    rmSync(slots, { recursive: true, force: true })
    if (failure) throw failure
  }
}
