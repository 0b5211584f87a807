import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'

export type Mailbox = {
  /** SMTP_URL for a server that mails through it. */
  url: string
  /** Where each mail received is kept, one .eml file per mail, named in the order received. */
  dir: string
  close(): Promise<void>
}

/** Larger than any invoice mail by far; a client that sends more is refused, not kept. */
const maxMessageBytes = 1_048_576

/**
 * A real SMTP server on loopback that keeps every mail it receives as it came (an .eml file a mail
 * program opens), so that on a devnet the mail a customer would get can be read. It takes mail for
 * anyone, without authentication or TLS: it listens on 127.0.0.1 only and delivers nowhere.
 */
export async function startMailbox({ dir, port = 0 }: { dir: string; port?: number }): Promise<Mailbox> {
  mkdirSync(dir, { recursive: true })
  let received = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxMessageBytes,
    banner: 'svc-checkout devnet mailbox',
    // every client is this machine: a reverse DNS lookup per connection would only cost time
    disableReverseLookup: true,
    // a client still connected must not hold a stopping devnet
    closeTimeout: 1_000,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(Object.assign(new Error('the mail is larger than this mailbox keeps'), { responseCode: 552 }))
        received += 1
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(received).padStart(4, '0')}.eml`
        // written under another name first: a reader waiting for mail never sees half of one
        const temporary = join(dir, `.${name}.tmp`)
        writeFileSync(temporary, Buffer.concat(chunks), { mode: 0o600 })
        renameSync(temporary, join(dir, name))
        callback()
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port: listening } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${listening}`,
    dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
