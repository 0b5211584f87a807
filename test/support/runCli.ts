import { spawn } from 'node:child_process'
import { bundledCli } from './cliBundle'

export type CliRun = { code: number | null; stdout: string; stderr: string }

function run(nodeArgs: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Runs one of our command-line tools (its bundle: test/support/cliBundle.ts), with exactly `env` on top of PATH. */
export async function runCli(script: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return run([await bundledCli(script), ...args], env)
}

/** Runs one of our command-line tools exactly as its npm script does (tsx), with exactly `env` on top of PATH. */
export function runCliWithTsx(script: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return run(['--import', 'tsx', script, ...args], env)
}
