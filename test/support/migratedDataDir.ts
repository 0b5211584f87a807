import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, inject } from 'vitest'
import { openMigratedDatabase } from '../../server/store/openStores'
import { throwawayParentDir } from './throwawayDir'

let template: Promise<string> | undefined

/** The worker's template, made on first use; it goes with the worker (in the `node` project's folder
 * its teardown removes, too). */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = mkdtempSync(join(inject('devnetSlotsDir') || tmpdir(), 'pglite-template-'))
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
    const db = await openMigratedDatabase({ DATA_DIR: dir })
    await db.close()
    return dir
  })()
  return template
}

/**
 * New PGlite data directories as a server leaves one after its first start in an empty DATA_DIR:
 * initdb'd and migrated, holding no records. For tests that give DATA_DIR to a tool run in its own
 * process, or open it themselves before and after. initdb on disk is about 5 s of CPU and a copy
 * about 0.5 s, so the worker makes one template, before the file's tests (outside any one test's
 * time), and each directory is a copy of it, removed after the file: in memory where there is room
 * (throwawayDir.ts), where a copy takes 55 ms. Making one in an empty directory is
 * test/devnet/devnetDatabase.test.ts's.
 */
export function useMigratedDataDirs() {
  const copies: string[] = []
  beforeAll(async () => {
    await migratedTemplate()
  })
  afterAll(() => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true })
  })
  return {
    async create(): Promise<string> {
      const dir = mkdtempSync(join(throwawayParentDir(), 'svc-data-dir-'))
      copies.push(dir)
      cpSync(await migratedTemplate(), dir, { recursive: true })
      return dir
    },
  }
}
