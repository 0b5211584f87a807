import { createDecipheriv, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { bytesToHex, concat, getAddress, hexToBytes, keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { CodedError } from '../shared/codedError'

export type KeystoreErrorCode = 'KEYSTORE_UNREADABLE' | 'KEYSTORE_WRONG_PASSWORD'

/** The file is not a key we can open, or the password does not open it. Never carries the password or the key. */
export class KeystoreError extends CodedError {
  override name = 'KeystoreError'
  constructor(
    readonly code: KeystoreErrorCode,
    message: string,
  ) {
    super(message)
  }
}

const scryptAsync = promisify(scrypt) as (password: Buffer, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>
const pbkdf2Async = promisify(pbkdf2)

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function hexField(parent: Json, name: string, bytes?: number): Buffer {
  const value = parent[name]
  if (typeof value !== 'string' || !/^(0x)?([0-9a-fA-F]{2})+$/.test(value)) throw unreadable(`"${name}" is not hex`)
  const buffer = Buffer.from(hexToBytes(value.startsWith('0x') ? (value as Hex) : `0x${value}`))
  if (bytes !== undefined && buffer.length !== bytes) throw unreadable(`"${name}" is not ${bytes} bytes`)
  return buffer
}

function wholeField(parent: Json, name: string, max: number): number {
  const value = parent[name]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) throw unreadable(`"${name}" is not a whole number from 1 to ${max}`)
  return value
}

const unreadable = (why: string) => new KeystoreError('KEYSTORE_UNREADABLE', `not a version 3 keystore we can open: ${why}`)

/** Bounds that keep a hostile file from asking for minutes of work or gigabytes of memory; geth's
 * "standard" scrypt (n 2^18, r 8, p 1) and any pbkdf2 count in use fit well inside them. */
const limits = { scryptN: 2 ** 20, scryptR: 32, scryptP: 16, pbkdf2C: 10_000_000, dklen: 64 }

async function derivedKey(kdf: unknown, params: Json, password: Buffer): Promise<Buffer> {
  const salt = hexField(params, 'salt')
  const dklen = wholeField(params, 'dklen', limits.dklen)
  if (dklen < 32) throw unreadable('"dklen" is under 32')
  if (kdf === 'scrypt') {
    const N = wholeField(params, 'n', limits.scryptN)
    const r = wholeField(params, 'r', limits.scryptR)
    const p = wholeField(params, 'p', limits.scryptP)
    if ((N & (N - 1)) !== 0 || N < 2) throw unreadable('scrypt "n" is not a power of two')
    // node's default ceiling (32 MiB) is below geth's standard parameters (256 MiB)
    return scryptAsync(password, salt, dklen, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }).catch(() => {
      // OpenSSL holds scrypt to RFC 7914 (n below 2^(16 r)), which some test vectors exceed
      throw unreadable(`scrypt refuses n ${N} with r ${r} and p ${p}`)
    })
  }
  if (kdf === 'pbkdf2') {
    if (params.prf !== 'hmac-sha256') throw unreadable('pbkdf2 "prf" is not hmac-sha256')
    return pbkdf2Async(password, salt, wholeField(params, 'c', limits.pbkdf2C), dklen, 'sha256')
  }
  throw unreadable(`kdf ${JSON.stringify(kdf)} is neither scrypt nor pbkdf2`)
}

/**
 * The private key in a Web3 Secret Storage (version 3) file, as geth, clef, foundry's `cast wallet`
 * and most wallets write it: the password through scrypt or pbkdf2-hmac-sha256, the MAC checked
 * (keccak256 of the derived key's bytes 16 to 32 and the ciphertext) before anything is decrypted,
 * then aes-128-ctr under the derived key's first 16 bytes. Where the file names its address, the key
 * must be that address's.
 */
export async function decryptKeystore(file: unknown, password: string): Promise<Hex> {
  if (!isObject(file)) throw unreadable('not a JSON object')
  if (file.version !== 3) throw unreadable(`"version" is ${JSON.stringify(file.version)}, not 3`)
  // geth wrote "Crypto" for a while
  const crypto = file.crypto ?? file.Crypto
  if (!isObject(crypto)) throw unreadable('no "crypto" object')
  if (crypto.cipher !== 'aes-128-ctr') throw unreadable(`cipher ${JSON.stringify(crypto.cipher)} is not aes-128-ctr`)
  if (!isObject(crypto.cipherparams) || !isObject(crypto.kdfparams)) throw unreadable('no "cipherparams" or "kdfparams"')
  const iv = hexField(crypto.cipherparams, 'iv', 16)
  const ciphertext = hexField(crypto, 'ciphertext', 32)
  const mac = hexField(crypto, 'mac', 32)

  const key = await derivedKey(crypto.kdf, crypto.kdfparams, Buffer.from(password, 'utf8'))
  const computed = Buffer.from(hexToBytes(keccak256(concat([key.subarray(16, 32), ciphertext]))))
  if (!timingSafeEqual(computed, mac)) throw new KeystoreError('KEYSTORE_WRONG_PASSWORD', 'the password does not open this keystore (its MAC differs)')

  const decipher = createDecipheriv('aes-128-ctr', key.subarray(0, 16), iv)
  const privateKey = bytesToHex(Buffer.concat([decipher.update(ciphertext), decipher.final()]))
  if (typeof file.address === 'string' && /^(0x)?[0-9a-fA-F]{40}$/.test(file.address)) {
    const named = getAddress(file.address.startsWith('0x') ? file.address : `0x${file.address}`)
    if (privateKeyToAccount(privateKey).address !== named) throw unreadable(`its key is not the key of the address it names, ${named}`)
  }
  return privateKey
}
