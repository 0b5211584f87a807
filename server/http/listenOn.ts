import { serve, type ServerType } from '@hono/node-server'
import { ConfigError } from '../config'
import { defaultConnectionLimits, type ConnectionLimits } from './connectionLimits'

export type ListenOnParameters = {
  fetch: (request: Request) => Response | Promise<Response>
  hostname: string
  port: number
  /** The setting that chose the port, named when it cannot be listened on. */
  variable: string
  /** The setting that chose the address, if one did: named when the address is not this machine's. */
  hostVariable?: string
  /** Absent: the defaults (the devnet's storefront). */
  limits?: ConnectionLimits
}

/**
 * Listens on hostname:port. A port that cannot be had (another program holds it, or it needs
 * privileges) is the operator's to fix, so it rejects with what to change rather than leaving Node's
 * unhandled 'error' event and its stack trace.
 */
export function listenOn({ fetch, hostname, port, variable, hostVariable, limits = defaultConnectionLimits }: ListenOnParameters): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const why =
        error.code === 'EADDRINUSE'
          ? `another program is listening there: stop it, or choose a free port with ${variable}`
          : error.code === 'EADDRNOTAVAIL' && hostVariable
            ? `${hostname} is not an address of this machine: choose one that is with ${hostVariable}`
            : `choose another port with ${variable}`
      reject(new ConfigError(`${variable} ${port} on ${hostname} cannot be listened on (${error.code ?? error.message}): ${why}`))
    }
    const serverOptions = {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts only this often (30 s unless told): without it a slow client
      // would hold its socket up to half a minute past headersTimeout
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    }
    const listening = serve({ fetch, hostname, port, serverOptions }, () => {
      listening.off('error', failed)
      resolve(listening)
    })
    // set before the first connection is accepted: listen() above completes on a later tick
    listening.maxConnections = limits.maxConnections
    listening.once('error', failed)
  })
}
