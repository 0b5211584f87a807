import { chmodSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Socket } from 'node:net'
import { QueryError, type Database } from '../server/store/database'

// PGlite is one process's: a second process that opened the devnet's data directory while the
// devnet runs would replay and rewrite files the devnet still holds. So the running devnet answers
// the tools' queries itself, over a Unix socket beside its data directory, one JSON line each way.

type Request = { id: number; sql: string; params: unknown[] }
type Answer = { id: number; rows: unknown[] } | { id: number; error: { message: string; sqlState?: string | undefined; constraint?: string | undefined } }

/** Dates, bytes and bigints, which JSON would flatten, travel tagged. */
function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, plain: unknown) {
    const raw = this[key]
    if (raw instanceof Date) return { $date: raw.toISOString() }
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString('base64') }
    if (typeof raw === 'bigint') return { $bigint: raw.toString() }
    return plain
  })
}

function decode(line: string): unknown {
  return JSON.parse(line, (_, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value
    const tagged = value as { $date?: string; $bytes?: string; $bigint?: string }
    if (typeof tagged.$date === 'string') return new Date(tagged.$date)
    if (typeof tagged.$bytes === 'string') return Buffer.from(tagged.$bytes, 'base64')
    if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint)
    return value
  })
}

function eachLine(socket: Socket, onLine: (line: string) => void) {
  let buffered = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      if (line) onLine(line)
    }
  })
}

/** The running devnet lends `db` to the tools at `path` (owner-only) until closed. */
export async function lendDatabase(db: Pick<Database, 'query'>, path: string): Promise<{ close(): Promise<void> }> {
  // a socket file left by a devnet that was killed refuses the bind
  rmSync(path, { force: true })
  const connections = new Set<Socket>()
  const server = createServer((socket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
    socket.on('error', () => socket.destroy())
    eachLine(socket, (line) => {
      const { id, sql, params } = decode(line) as Request
      db.query(sql, params).then(
        (rows): Answer => ({ id, rows }),
        (error: unknown): Answer => {
          const failed = QueryError.from(error)
          return { id, error: { message: failed.message, sqlState: failed.sqlState, constraint: failed.constraint } }
        },
      ).then((answer) => socket.writable && socket.write(`${encode(answer)}\n`))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => resolve())
  })
  chmodSync(path, 0o600)
  return {
    async close() {
      for (const socket of connections) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(path, { force: true })
    },
  }
}

/** The database a running devnet lends at `path`; null when no devnet answers there (it is stopped).
 * Statements only: a transaction would hold the devnet's one connection across the socket. */
export async function borrowDatabase(path: string): Promise<Database | null> {
  const socket = await new Promise<Socket | null>((resolve) => {
    const connection = createConnection(path)
    connection.once('connect', () => resolve(connection))
    connection.once('error', () => resolve(null))
  })
  if (!socket) return null
  let next = 0
  const waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>()
  const fail = (error: Error) => {
    for (const { reject } of waiting.values()) reject(error)
    waiting.clear()
  }
  socket.on('error', (error) => fail(new QueryError(`the devnet's database socket failed: ${error.message}`)))
  socket.on('close', () => fail(new QueryError('the devnet stopped while a query was under way')))
  eachLine(socket, (line) => {
    const answer = decode(line) as Answer
    const pending = waiting.get(answer.id)
    waiting.delete(answer.id)
    if (!pending) return
    if ('rows' in answer) pending.resolve(answer.rows)
    else pending.reject(new QueryError(answer.error.message, answer.error))
  })
  return {
    query<T>(sql: string, params: readonly unknown[] = []) {
      const id = ++next
      return new Promise<T[]>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject })
        socket.write(`${encode({ id, sql, params: [...params] } satisfies Request)}\n`)
      })
    },
    transaction() {
      return Promise.reject(new QueryError("transactions do not cross the devnet's database socket"))
    },
    async close() {
      await new Promise<void>((resolve) => socket.end(() => resolve()))
    },
  }
}
