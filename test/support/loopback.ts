import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'

type Listening = { listen(port: number, host: string, listening: () => void): unknown; address(): AddressInfo | string | null }

/** Listens on 127.0.0.1 at `port` (0: a free one) and resolves with the port it got: a server a test
 * stops and starts again keeps its port. */
export function listenOnLoopback(server: Listening, port: number): Promise<number> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)))
}

/** A server (TCP or HTTP) on a free 127.0.0.1 port that can be stopped and started again on the same
 * port: a dependency going down and coming back, as the server under test sees it. */
export async function startRestartableLoopbackServer(create: () => Server) {
  const sockets = new Set<Socket>()
  let server: Server
  let port = 0
  const start = async () => {
    server = create()
    server.on('connection', (socket: Socket) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    port = await listenOnLoopback(server, port)
  }
  await start()
  return {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    /** Refuses new connections and cuts the open ones. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
    /** Comes back on the same port. */
    start,
  }
}

/** Whether `port` is free on 127.0.0.1 right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
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
