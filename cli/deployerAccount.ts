import { readFile } from 'node:fs/promises'
import type { PrivateKeyAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { decryptKeystore, KeystoreError } from '../deploy/keystore'
import type { DeployerKeySource } from './deployCommand'
import { UsageError } from './usageError'

/** Asks a person for the keystore's password without echoing it; absent where nobody can answer. */
export type AskPassword = (question: string) => Promise<string>

/** The terminal side `askOnTerminal` needs: stdin when it is a TTY. */
export type TerminalInput = Pick<NodeJS.ReadStream, 'setRawMode' | 'resume' | 'pause' | 'setEncoding' | 'on' | 'off'>

/** Reads one line from the terminal in raw mode, echoing nothing of it; Ctrl-C or Ctrl-D gives up. The
 * question and the closing newline go to `output` (stderr: stdout is the env file). */
export function askOnTerminal(input: TerminalInput, output: Pick<NodeJS.WritableStream, 'write'>): AskPassword {
  return (question) =>
    new Promise((resolve, reject) => {
      output.write(question)
      input.setRawMode(true)
      input.resume()
      input.setEncoding('utf8')
      let typed = ''
      const done = (error?: Error) => {
        input.setRawMode(false)
        input.pause()
        input.off('data', onData)
        output.write('\n')
        if (error) reject(error)
        else resolve(typed)
      }
      const onData = (chunk: string) => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n') return done()
          if (char === '\u0003' || char === '\u0004') return done(new UsageError('DEPLOYER_KEYSTORE_PASSWORD: none given (the prompt was cancelled)'))
          if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1)
          else typed += char
        }
      }
      input.on('data', onData)
    })
}

/** The deployer's account from its key or its keystore. Every refusal names the flag or variable at fault
 * and never carries the key or the password. */
export async function deployerAccount(source: DeployerKeySource, askPassword?: AskPassword): Promise<PrivateKeyAccount> {
  if ('privateKey' in source) return privateKeyToAccount(source.privateKey)
  const path = source.keystore
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(`--keystore: cannot read ${path} (${(error as { code?: string }).code ?? 'unreadable'})`)
  }
  let file: unknown
  try {
    file = JSON.parse(text)
  } catch {
    throw new UsageError(`--keystore: ${path} is not JSON: pass a version 3 keystore (geth's, clef's or cast wallet's)`)
  }
  const password = source.password ?? (askPassword ? await askPassword(`password of the keystore ${path}: `) : undefined)
  if (password === undefined) {
    throw new UsageError(`DEPLOYER_KEYSTORE_PASSWORD: missing: the password of --keystore ${path} (or run the command in a terminal to be asked for it)`)
  }
  try {
    return privateKeyToAccount(await decryptKeystore(file, password))
  } catch (error) {
    if (!(error instanceof KeystoreError)) throw error
    if (error.code === 'KEYSTORE_WRONG_PASSWORD') {
      throw new UsageError(`${source.password === undefined ? 'the password typed' : 'DEPLOYER_KEYSTORE_PASSWORD'}: does not open --keystore ${path} (its MAC differs)`)
    }
    throw new UsageError(`--keystore: ${path} is ${error.message}`)
  }
}
