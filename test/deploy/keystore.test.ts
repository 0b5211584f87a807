import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, test } from 'vitest'
import { askOnTerminal, deployerAccount, type TerminalInput } from '../../cli/deployerAccount'
import { UsageError } from '../../cli/usageError'
import { decryptKeystore, KeystoreError } from '../../deploy/keystore'
import { encryptKeystore } from '../support/encryptKeystore'

/** The PBKDF2-SHA-256 test vector of the Web3 Secret Storage Definition (password "testpassword"). */
const specVector = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
}

const key = generatePrivateKey()
const dir = mkdtempSync(join(tmpdir(), 'svc-keystore-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
function keystoreFile(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    if (error instanceof UsageError || error instanceof KeystoreError) return `${error instanceof KeystoreError ? `${error.code}: ` : ''}${error.message}`
    throw error
  }
  throw new Error('opened')
}

describe('the deployer keystore (Web3 Secret Storage v3)', () => {
  test('default: the specification\'s pbkdf2 test vector opens to its key', async () => {
    expect(await decryptKeystore(specVector, 'testpassword')).toBe('0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d')
  })

  test('behavior: scrypt and pbkdf2 files as geth writes them open to the key they hold, "Crypto" spelled either way', async () => {
    expect(await decryptKeystore(encryptKeystore(key, 'hunter2 ✓'), 'hunter2 ✓')).toBe(key)
    expect(await decryptKeystore(encryptKeystore(key, 'p', { kdf: 'pbkdf2', c: 1000 }), 'p')).toBe(key)
    const { crypto, ...rest } = encryptKeystore(key, 'p')
    expect(await decryptKeystore({ ...rest, Crypto: crypto }, 'p')).toBe(key)
  })

  test('behavior: a wrong password, or a ciphertext changed by one bit, fails on the MAC before anything is decrypted', async () => {
    expect(await refusal(decryptKeystore(specVector, 'testpassword!'))).toBe('KEYSTORE_WRONG_PASSWORD: the password does not open this keystore (its MAC differs)')
    const file = encryptKeystore(key, 'p')
    const flipped = (parseInt(file.crypto.ciphertext[0]!, 16) ^ 1).toString(16) + file.crypto.ciphertext.slice(1)
    expect(await refusal(decryptKeystore({ ...file, crypto: { ...file.crypto, ciphertext: flipped } }, 'p'))).toMatch(/^KEYSTORE_WRONG_PASSWORD/)
  })

  test('behavior: a file naming another address, another cipher or KDF, or parameters that would take minutes is refused as unreadable', async () => {
    const file = encryptKeystore(key, 'p')
    const other = privateKeyToAccount(generatePrivateKey()).address
    expect(await refusal(decryptKeystore({ ...file, address: other }, 'p'))).toBe(
      `KEYSTORE_UNREADABLE: not a version 3 keystore we can open: its key is not the key of the address it names, ${other}`,
    )
    expect(await refusal(decryptKeystore({ ...file, crypto: { ...file.crypto, cipher: 'aes-128-cbc' } }, 'p'))).toMatch(/cipher "aes-128-cbc" is not aes-128-ctr/)
    expect(await refusal(decryptKeystore({ ...file, crypto: { ...file.crypto, kdf: 'argon2' } }, 'p'))).toMatch(/kdf "argon2" is neither scrypt nor pbkdf2/)
    expect(await refusal(decryptKeystore({ ...file, crypto: { ...file.crypto, kdfparams: { ...file.crypto.kdfparams, n: 2 ** 24 } } }, 'p'))).toMatch(/"n" is not a whole number from 1 to 1048576/)
    expect(await refusal(decryptKeystore({ ...file, version: 1 }, 'p'))).toMatch(/"version" is 1, not 3/)
    expect(await refusal(decryptKeystore([], 'p'))).toMatch(/not a JSON object/)
  })
})

describe('the deployer key from a keystore: what the command says', () => {
  test('behavior: DEPLOYER_KEYSTORE_PASSWORD opens it; else the terminal is asked, and never when nobody can answer', async () => {
    const path = keystoreFile('deployer.json', encryptKeystore(key, 'pw'))
    const address = privateKeyToAccount(key).address
    expect((await deployerAccount({ keystore: path, password: 'pw' })).address).toBe(address)
    const questions: string[] = []
    const asked = await deployerAccount({ keystore: path, password: undefined }, async (question) => (questions.push(question), 'pw'))
    expect(asked.address).toBe(address)
    expect(questions).toEqual([`password of the keystore ${path}: `])
    expect(await refusal(deployerAccount({ keystore: path, password: undefined }))).toBe(
      `DEPLOYER_KEYSTORE_PASSWORD: missing: the password of --keystore ${path} (or run the command in a terminal to be asked for it)`,
    )
  })

  test('behavior: a wrong password names where it came from; a missing or non-JSON file names --keystore; neither echoes the password', async () => {
    const path = keystoreFile('wrong.json', encryptKeystore(key, 'pw'))
    const fromEnv = await refusal(deployerAccount({ keystore: path, password: 'secret-guess' }))
    expect(fromEnv).toBe(`DEPLOYER_KEYSTORE_PASSWORD: does not open --keystore ${path} (its MAC differs)`)
    expect(await refusal(deployerAccount({ keystore: path, password: undefined }, async () => 'typo'))).toBe(`the password typed: does not open --keystore ${path} (its MAC differs)`)
    expect(await refusal(deployerAccount({ keystore: join(dir, 'absent.json'), password: 'pw' }))).toBe(`--keystore: cannot read ${join(dir, 'absent.json')} (ENOENT)`)
    const notJson = keystoreFile('key.txt', key)
    const message = await refusal(deployerAccount({ keystore: notJson, password: 'pw' }))
    expect(message).toBe(`--keystore: ${notJson} is not JSON: pass a version 3 keystore (geth's, clef's or cast wallet's)`)
    expect(message).not.toContain(key.slice(2))
  })
})

/** A terminal in raw mode: what a person types arrives as data; records whether raw mode is on. */
function fakeTerminal() {
  const events = new EventEmitter()
  const modes: boolean[] = []
  const input = {
    setRawMode: (mode: boolean) => (modes.push(mode), input),
    resume: () => input,
    pause: () => input,
    setEncoding: () => input,
    on: (event: string, listener: (chunk: string) => void) => (events.on(event, listener), input),
    off: (event: string, listener: (chunk: string) => void) => (events.off(event, listener), input),
  } as unknown as TerminalInput
  let written = ''
  const output = { write: (text: string) => ((written += text), true) }
  return { input, output, modes, type: (text: string) => events.emit('data', text), written: () => written }
}

describe('the keystore password on the terminal', () => {
  test('behavior: what is typed is not echoed, backspace edits it, Enter ends it, and raw mode is left', async () => {
    const terminal = fakeTerminal()
    const answer = askOnTerminal(terminal.input, terminal.output)('password: ')
    terminal.type('pw')
    terminal.type('x\u007f')
    terminal.type('!\r')
    expect(await answer).toBe('pw!')
    expect(terminal.written()).toBe('password: \n')
    expect(terminal.modes).toEqual([true, false])
  })

  test('behavior: Ctrl-C gives up with DEPLOYER_KEYSTORE_PASSWORD named', async () => {
    const terminal = fakeTerminal()
    const answer = askOnTerminal(terminal.input, terminal.output)('password: ')
    terminal.type('pw\u0003')
    await expect(answer).rejects.toThrow('DEPLOYER_KEYSTORE_PASSWORD: none given (the prompt was cancelled)')
    expect(terminal.modes).toEqual([true, false])
  })
})
