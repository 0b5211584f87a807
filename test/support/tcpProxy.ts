import { createServer, connect, type Server, type Socket } from 'node:net'
import { listenOnLoopback } from './loopback'

/** A TCP forwarder on 127.0.0.1 to another loopback port that can be stopped and started again on
 * the same port: a dependency going down and coming back, as the server sees it. */
export async function startTcpProxy(targetPort: number) {
  const sockets = new Set<Socket>()
  let server: Server
  let port = 0
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  }
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      track(client)
      track(upstream)
      client.pipe(upstream).pipe(client)
      client.once('error', () => upstream.destroy())
      upstream.once('error', () => client.destroy())
    })
    port = await listenOnLoopback(server, port)
  }
  await listen()
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
    start: listen,
  }
}
