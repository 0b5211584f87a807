import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { startMailbox, type Mailbox } from '../../devnet/mailbox'

export type TestMailbox = Mailbox & {
  /** The first mail received since the last one returned, parsed; waits up to `timeoutMs` for it. */
  nextMessage(timeoutMs?: number): Promise<ParsedMail & { file: string }>
  /** The .eml files received so far. */
  files(): string[]
}

/** The devnet's loopback SMTP server (devnet/mailbox.ts), in a folder of its own for one test file. */
export async function startTestMailbox(): Promise<TestMailbox> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mailbox-'))
  const mailbox = await startMailbox({ dir })
  let taken = 0
  const files = () => readdirSync(dir).filter((name) => name.endsWith('.eml')).sort()
  return {
    ...mailbox,
    files,
    async nextMessage(timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const file = files()[taken]
        if (file) {
          taken += 1
          return Object.assign(await simpleParser(readFileSync(join(dir, file))), { file })
        }
        if (Date.now() > until) throw new Error(`no mail arrived within ${timeoutMs} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async close() {
      await mailbox.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
