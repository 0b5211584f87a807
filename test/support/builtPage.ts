import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { inject } from 'vitest'
import { BuildError } from '../../build/buildError'
import { distDir } from '../../build/distDir'
import { buildFailed, wantedFile } from './buildPage'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the `built` project's build of the page writes how it ended. */
    builtPageStatus: string
  }
}

/**
 * dist/ once `npm run build`, started by the `built` project's global setup (test/support/buildPage.ts),
 * has finished; its output if it failed. Every file of that project that reads dist/ awaits it first.
 */
export async function builtPage(): Promise<string> {
  const status = inject('builtPageStatus')
  if (!status) throw new BuildError('PAGE_NOT_BUILT', 'this test reads the built page, which only the `built` project builds: run it with `vitest run --project built`')
  // the build starts now if no browser worker's devnet has started it yet
  writeFileSync(join(dirname(status), wantedFile), '')
  // the build takes ~15 s beside the first tests; this only stops a run whose build never ends
  const deadline = Date.now() + 5 * 60_000
  while (!existsSync(status)) {
    if (Date.now() > deadline) throw new BuildError('PAGE_NOT_BUILT', '`npm run build` did not finish within 5 minutes')
    await sleep(100)
  }
  const { code, output } = JSON.parse(readFileSync(status, 'utf8')) as { code: number | null; output: string }
  if (code !== 0) throw buildFailed(code, output)
  return distDir()
}
