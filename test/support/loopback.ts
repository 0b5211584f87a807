import { createServer, type AddressInfo } from 'node:net'

type Listening = { listen(port: number, host: string, listening: () => void): unknown; address(): AddressInfo | string | null }

/** Listens on 127.0.0.1 at `port` (0: a free one) and resolves with the port it got: a server a test
 * stops and starts again keeps its port. */
export function listenOnLoopback(server: Listening, port: number): Promise<number> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** A port free on 127.0.0.1 right now, for programs that must be told their port (PostgreSQL, Redis). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
