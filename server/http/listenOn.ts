import { serve, type ServerType } from '@hono/node-server'
import { ConfigError } from '../config'

export type ListenOnParameters = {
  fetch: (request: Request) => Response | Promise<Response>
  hostname: string
  port: number
  /** The setting that chose the port, named when it cannot be listened on. */
  variable: string
  /** The setting that chose the address, if one did: named when the address is not this machine's. */
  hostVariable?: string
}

/**
 * Listens on hostname:port. A port that cannot be had (another program holds it, or it needs
 * privileges) is the operator's to fix, so it rejects with what to change rather than leaving Node's
 * unhandled 'error' event and its stack trace.
 */
export function listenOn({ fetch, hostname, port, variable, hostVariable }: ListenOnParameters): Promise<ServerType> {
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
    const listening = serve({ fetch, hostname, port }, () => {
      listening.off('error', failed)
      resolve(listening)
    })
    listening.once('error', failed)
  })
}
