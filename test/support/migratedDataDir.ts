import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inject } from 'vitest'
import { openMigratedDatabase } from '../../server/store/openStores'

let template: Promise<string> | undefined

/**
 * A new PGlite data directory as a server leaves it after its first start in an empty DATA_DIR:
 * initdb'd and migrated, holding no records. For tests that give DATA_DIR to a tool run in its own
 * process, or open it themselves before and after. initdb on disk is about 5 s of CPU and a copy
 * about 0.5 s, so the worker makes one template and copies it; the caller removes its copy. The
 * template goes with the worker (in the `node` project's folder its teardown removes, too).
 * The first start on an empty DATA_DIR is test/server/serve.test.ts's.
 */
export async function migratedDataDir(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(join(inject('devnetSlotsDir') || tmpdir(), 'pglite-template-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const db = await openMigratedDatabase({ DATA_DIR: dir })
    await db.close()
    return dir
  })()
  const dir = mkdtempSync(join(tmpdir(), 'svc-data-dir-'))
  cpSync(await template, dir, { recursive: true })
  return dir
}
