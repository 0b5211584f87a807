import { statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'

/**
 * Where files deleted after a test file or the run go: memory (/dev/shm) where there is room for them,
 * else the temporary directory. On this repository's machine the disk is the slow part of what the
 * tests write and throw away: a new PostgreSQL database took 200-370 ms of writing (CREATE DATABASE
 * copies a 7.5-10 MB template) and 15-40 ms in memory; a copy of a migrated PGlite data directory
 * 0.8-0.9 s and 55 ms. Durability is worth nothing here. A container's default /dev/shm (64 MB) is
 * too small, and is passed over.
 */
export function throwawayParentDir(): string {
  const memory = '/dev/shm'
  try {
    const { bavail, bsize } = statfsSync(memory)
    if (bavail * bsize >= 2 * 1024 ** 3) return memory
  } catch {
    // no /dev/shm here
  }
  return tmpdir()
}
