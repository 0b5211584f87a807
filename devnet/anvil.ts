import { CodedError } from '../shared/codedError'
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

export type Anvil = {
  rpcUrl: string
  port: number
  pid: number
  stop(): Promise<void>
}

export type StartAnvilParameters = {
  /** 0 lets the OS pick a free port (tests); the devnet passes DEVNET_RPC_PORT. */
  port?: number
  chainId?: number
  /** Write the node's output here and let it outlive this process (a test worker's shared node,
   * stopped by the run's teardown through its pid). Without it the node's output is piped to us. */
  logFile?: string | undefined
}

class AnvilStartError extends CodedError {
  override name = 'AnvilStartError'
  readonly code = 'ANVIL_START_FAILED'
}

/** The native binary from the platform package that @foundry-rs/anvil selects; spawning it directly
 * (not the node wrapper) means a kill reaches the node itself. */
function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil')
  } catch (cause) {
    throw new AnvilStartError(`${pkg} is not installed: run npm ci on a supported platform`, { cause })
  }
}

export async function startAnvil({ port = 0, chainId = 31337, logFile }: StartAnvilParameters = {}): Promise<Anvil> {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--hardfork', 'prague']
  // a node that outlives us must not write into a pipe that closes with us: its output goes to a file
  const log = logFile ? openSync(logFile, 'w') : undefined
  const child = spawn(anvilBinary(), args, log === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { stdio: ['ignore', log, log], detached: true })
  if (log !== undefined) closeSync(log)
  // a node of this process alone goes with it, however it ends (an uncaught error included): left
  // running, it would hold the port the next start asks for ("address in use" on the next npm start)
  if (log === undefined) {
    const stopWithUs = () => child.kill('SIGTERM')
    process.once('exit', stopWithUs)
    child.once('exit', () => process.off('exit', stopWithUs))
  }
  const boundPort = await new Promise<number>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => fail(new AnvilStartError(`anvil did not start within 15 s:\n${read()}`)), 15_000)
    const read = () => (logFile ? readFileSync(logFile, 'utf8') : output)
    const poll = logFile ? setInterval(() => listening(), 25) : undefined
    const done = () => {
      clearTimeout(timer)
      clearInterval(poll)
      child.off('exit', exited)
    }
    const fail = (error: Error) => {
      done()
      child.kill('SIGKILL')
      reject(error)
    }
    const listening = () => {
      const match = /Listening on [\d.]+:(\d+)/.exec(read())
      if (!match) return
      done()
      child.stdout?.off('data', onData)
      child.stdout?.resume()
      if (logFile) child.unref()
      resolve(Number(match[1]))
    }
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      listening()
    }
    const exited = (code: number | null) =>
      fail(
        new AnvilStartError(
          /Address already in use/.test(read())
            ? `port ${port} on 127.0.0.1 is taken: another program is listening there (an earlier npm start?): stop it, or run the devnet's node on another port with DEVNET_RPC_PORT`
            : `anvil exited with code ${code}:\n${read()}`,
        ),
      )
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', (error) => fail(new AnvilStartError(`anvil failed to start: ${error.message}`, { cause: error })))
    child.once('exit', exited)
  })
  return { rpcUrl: `http://127.0.0.1:${boundPort}`, port: boundPort, pid: child.pid!, stop: () => stopChild(child) }
}

/** SIGTERM, and SIGKILL if the child has not exited 3 s later: a hung shutdown cannot outlive its caller. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3_000)
    child.once('exit', () => {
      clearTimeout(force)
      resolve()
    })
    child.kill('SIGTERM')
  })
}
