import { createServer, type AddressInfo } from 'node:net'

/**
 * A port free on 127.0.0.1 now. The devnet's server must know its own address before it listens:
 * the identity provider, started first, registers the dashboard's redirect URI on it and allows
 * only that origin to call its token endpoint. Another process could take the port in between;
 * on a developer's machine that is rare, and the server's listen would then fail loudly.
 */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
