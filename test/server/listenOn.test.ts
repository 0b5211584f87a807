import type { Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { describe, expect, onTestFinished, test } from 'vitest'
import type { ConnectionLimits } from '../../server/http/connectionLimits'
import { listenOn } from '../../server/http/listenOn'

test('behavior: an address that is not this machine\'s is refused naming the address setting, not the port', async () => {
  // 192.0.2.1 is TEST-NET-1, reserved for documentation: no machine has it
  await expect(listenOn({ fetch: () => new Response(''), hostname: '192.0.2.1', port: 0, variable: 'OPS_PORT', hostVariable: 'OPS_HOST' })).rejects.toMatchObject({
    code: 'CONFIG_INVALID',
    message: 'OPS_PORT 0 on 192.0.2.1 cannot be listened on (EADDRNOTAVAIL): 192.0.2.1 is not an address of this machine: choose one that is with OPS_HOST',
  })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A listener on 127.0.0.1 with these limits, closed after the test. */
async function listening(limits: ConnectionLimits, fetch: (request: Request) => Response | Promise<Response> = () => new Response('ok')) {
  // an HTTP/1.1 listener: what the server runs
  const server = (await listenOn({ fetch, hostname: '127.0.0.1', port: 0, variable: 'PORT', limits })) as Server
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  return { server, port: (server.address() as AddressInfo).port }
}

/** A raw connection to 127.0.0.1:port: what it has received, and when (ms after it connected) the server closed it. */
async function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  onTestFinished(() => void socket.destroy())
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
  const opened = performance.now()
  let received = ''
  socket.on('data', (chunk) => (received += chunk))
  socket.on('error', () => {})
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)))
  return {
    socket,
    received: () => received,
    /** When the server closed it, or null if it was still open after `withinMs`. */
    closedWithin: (withinMs: number) => Promise.race([closed, sleep(withinMs).then(() => null)]),
  }
}

const limits: ConnectionLimits = { headersTimeoutMs: 500, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 300, maxConnections: 2 }

describe('connection limits', () => {
  test('default: the listener carries the configured timeouts and connection cap', async () => {
    const { server } = await listening(limits)
    expect({ headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout, keepAliveTimeout: server.keepAliveTimeout, maxConnections: server.maxConnections })
      .toEqual({ headersTimeout: 500, requestTimeout: 1_000, keepAliveTimeout: 300, maxConnections: 2 })
  })

  test('behavior: a client that trickles its headers and never ends them (slowloris) is answered 408 and cut off once headersTimeoutMs has passed', async () => {
    const { port } = await listening(limits)
    const client = await rawClient(port)
    client.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    // a header byte every 100 ms: never idle, never done
    const trickle = setInterval(() => client.socket.writable && client.socket.write('x'), 100)
    onTestFinished(() => clearInterval(trickle))
    client.socket.write('X-Slow: ')
    const closedAfter = await client.closedWithin(5_000)
    expect(closedAfter).not.toBeNull()
    // checked every headersTimeoutMs at most: cut between one and two of them
    expect(closedAfter!).toBeGreaterThanOrEqual(450)
    expect(closedAfter!).toBeLessThan(2_000)
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /)
  })

  test('behavior: an idle keep-alive connection is closed after keepAliveTimeoutMs', async () => {
    const { port } = await listening(limits)
    const client = await rawClient(port)
    client.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await expect.poll(() => client.received(), { timeout: 2_000, interval: 20 }).toMatch(/\r\n\r\nok$/)
    const closedAfter = await client.closedWithin(4_000)
    expect(closedAfter).not.toBeNull()
    // Node closes it a second after keepAliveTimeoutMs (its margin for a client's own timer)
    expect(closedAfter!).toBeGreaterThanOrEqual(250)
    expect(closedAfter!).toBeLessThan(2_500)
  })

  test('behavior: a handler slower than requestTimeoutMs still answers: the timeout is for receiving the request, not for the answer', async () => {
    const { port } = await listening({ ...limits, maxConnections: 10 }, async () => {
      await sleep(1_300)
      return new Response('late')
    })
    const answer = await fetch(`http://127.0.0.1:${port}/`)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toBe('late')
  })

  test('behavior: past maxConnections a new connection is closed at once, unanswered; the open ones are served', async () => {
    const { port } = await listening({ ...limits, headersTimeoutMs: 5_000, requestTimeoutMs: 5_000, keepAliveTimeoutMs: 5_000 })
    const first = await rawClient(port)
    const second = await rawClient(port)
    const third = await rawClient(port)
    third.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(await third.closedWithin(2_000)).not.toBeNull()
    expect(third.received()).toBe('')
    first.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await expect.poll(() => first.received(), { timeout: 2_000, interval: 20 }).toMatch(/^HTTP\/1\.1 200 /)
    expect(await second.closedWithin(0)).toBeNull()
  })
})
