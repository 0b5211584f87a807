import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Whether two secrets are equal, compared in a time that tells neither how much of them matched nor
 * how long either is: both are hashed to 32 bytes first. */
export function sameSecret(expected: string, given: string): boolean {
  return timingSafeEqual(digest(expected), digest(given))
}
