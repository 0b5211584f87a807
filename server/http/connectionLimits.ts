/** How long a connection may take over what, and how many there may be (the HTTP_* settings). */
export type ConnectionLimits = {
  /** From a request's first byte to its last header: a client that trickles its headers (slowloris)
   * is answered 408 and cut off after this. */
  headersTimeoutMs: number
  /** From a request's first byte to the end of its body. Receiving only: a handler may take longer
   * to answer (a submission waits for its receipt). At least `headersTimeoutMs`. */
  requestTimeoutMs: number
  /** How long a kept-alive connection may sit idle between requests (Node closes it a second later). */
  keepAliveTimeoutMs: number
  /** Open connections at once, per listener; one more is closed as soon as it is accepted. */
  maxConnections: number
}

/**
 * Node's own are 60 s for the headers, 5 minutes for the request and no cap on connections: room for
 * a few thousand slow clients to hold every socket the process may open. A browser or a merchant's
 * backend sends its headers in milliseconds and a body of 96 KiB at most.
 */
export const defaultConnectionLimits: ConnectionLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 4_096 }
