import { CodedError } from '../../src/shared/codedError'
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

export type Anvil = {
  rpcUrl: string
  port: number
  stop(): Promise<void>
}

export type StartAnvilParameters = {
  /** 0 lets the OS pick a free port (tests); the devnet passes DEVNET_RPC_PORT. */
  port?: number
  chainId?: number
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

export async function startAnvil({ port = 0, chainId = 31337 }: StartAnvilParameters = {}): Promise<Anvil> {
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--hardfork', 'prague'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const boundPort = await new Promise<number>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => fail(new AnvilStartError(`anvil did not start within 15 s:\n${output}`)), 15_000)
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on [\d.]+:(\d+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      child.stdout?.resume()
      resolve(Number(match[1]))
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', (error) => fail(new AnvilStartError(`anvil failed to start: ${error.message}`, { cause: error })))
    child.once('exit', (code) => fail(new AnvilStartError(`anvil exited with code ${code}:\n${output}`)))
  })
  return { rpcUrl: `http://127.0.0.1:${boundPort}`, port: boundPort, stop: () => stopChild(child) }
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
