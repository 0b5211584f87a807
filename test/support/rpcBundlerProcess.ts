import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Deployment } from '../../shared/deployment'

type Control = 'hold' | 'release' | 'forgetNextOperation' | 'calls' | 'stop'

/**
 * The devnet's JSON-RPC bundler (rpcBundlerServer, mempool mode) in a process of its own, as an
 * external bundler is: under load it does not share an event loop with whoever drives the load.
 * The same switches, over IPC.
 */
export async function startRpcBundlerProcess({ rpcUrl, deployment }: { rpcUrl: string; deployment: Deployment }) {
  const child = fork(fileURLToPath(new URL('./rpcBundlerChild.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SVC_BUNDLER_DEVNET: JSON.stringify({ rpcUrl, deployment }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const replies = new Map<number, (result: unknown) => void>()
  let nextId = 0
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bundler process exited (${code}) before it listened`)))
    child.on('message', (message: { url?: string; id?: number; result?: unknown }) => {
      if (message.url) resolve(message.url)
      else if (message.id !== undefined) replies.get(message.id)?.(message.result)
    })
  })
  const control = (call: Control) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++
      replies.set(id, resolve)
      child.send({ id, call })
    })
  return {
    url,
    hold: () => control('hold'),
    release: () => control('release'),
    forgetNextOperation: () => control('forgetNextOperation'),
    calls: async () => (await control('calls')) as Record<string, number>,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      await control('stop')
      child.disconnect()
      await exited
    },
  }
}
