import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { homedir, platform } from 'node:os'
import { dirname, join } from 'node:path'

/** What `login` keeps for one server: its client registration and the grant's tokens. */
export type StoredCredentials = {
  serverUrl: string
  clientId: string
  accessToken: string
  refreshToken: string
  /** Milliseconds since the epoch, by this machine's clock. */
  expiresAt: number
  scope: string
}

/** The OS's folder for a user's configuration: XDG on Linux, Application Support on macOS, AppData on Windows. */
export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR
  if (platform() === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'svc-checkout')
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Application Support', 'svc-checkout')
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'svc-checkout')
}

export const credentialsPath = (env: NodeJS.ProcessEnv = process.env) => join(configFolder(env), 'credentials.json')

export async function readCredentials(path: string): Promise<StoredCredentials | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as StoredCredentials
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Readable by its owner alone (0600), in a folder only its owner may enter: the tokens act for the merchant. */
export async function writeCredentials(path: string, credentials: StoredCredentials): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  await writeFile(path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
  // writeFile keeps an existing file's mode: make sure of it
  await chmod(path, 0o600)
}

export async function deleteCredentials(path: string): Promise<void> {
  await rm(path, { force: true })
}
