import { createServer, connect } from 'node:net'
import { startRestartableLoopbackServer } from './loopback'

/** A TCP forwarder on 127.0.0.1 to another loopback port that can be stopped and started again on
 * the same port: a dependency going down and coming back, as the server sees it. */
export function startTcpProxy(targetPort: number) {
  return startRestartableLoopbackServer(() =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      client.pipe(upstream).pipe(client)
      // a connection cut on either side is cut on the other
      client.once('close', () => upstream.destroy())
      upstream.once('close', () => client.destroy())
      client.once('error', () => upstream.destroy())
      upstream.once('error', () => client.destroy())
    }),
  )
}
