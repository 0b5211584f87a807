import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopChild } from '../../devnet/anvil'

const preload = fileURLToPath(new URL('./loopbackPreload.cjs', import.meta.url))

export type LoopbackChild = {
  url: string
  child: ChildProcess
  /** The child's last 8 KB of stdout and stderr, for a failure's message. */
  output(): string
  stop(): Promise<void>
}

/**
 * A Node program in its own process with every listen pinned to 127.0.0.1 (loopbackPreload.cjs).
 * Resolves with the URL of the first port it listens on once `ready` resolves; otherwise stops it
 * and throws with what it printed.
 */
export async function startLoopbackChild({
  name,
  args,
  cwd,
  timeoutMs,
  ready = async () => {},
}: {
  name: string
  /** Node's arguments after the preload: the script and its own arguments. */
  args: string[]
  cwd: string
  timeoutMs: number
  ready?: (url: string, child: ChildProcess) => Promise<void>
}): Promise<LoopbackChild> {
  // services read variables and a .env in their working directory: give them neither
  const child = spawn(process.execPath, ['--require', preload, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not listen within ${timeoutMs} ms`)), timeoutMs)
      child.once('message', (message: { listening?: { port: number } }) => {
        clearTimeout(timer)
        if (message.listening) resolve(`http://127.0.0.1:${message.listening.port}`)
        else reject(new Error(`${name} reported no listening port`))
      })
      child.once('error', reject)
      child.once('exit', (code, signal) => reject(new Error(`${name} exited (${signal ?? code})`)))
    })
    await ready(url, child)
    return { url, child, output: () => output, stop: () => stopChild(child) }
  } catch (error) {
    await stopChild(child)
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error })
  }
}
