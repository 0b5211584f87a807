import { createCipheriv, pbkdf2Sync, randomBytes, randomUUID, scryptSync } from 'node:crypto'
import { concat, hexToBytes, keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export type KeystoreKdf = { kdf: 'scrypt'; n: number; r: number; p: number } | { kdf: 'pbkdf2'; c: number }

/** A Web3 Secret Storage v3 file for `privateKey`, written the way geth writes one (aes-128-ctr, the MAC
 * over the derived key's bytes 16 to 32 and the ciphertext). Small KDF parameters keep tests fast. */
export function encryptKeystore(privateKey: Hex, password: string, kdf: KeystoreKdf = { kdf: 'scrypt', n: 1024, r: 8, p: 1 }) {
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const key =
    kdf.kdf === 'scrypt'
      ? scryptSync(password, salt, 32, { N: kdf.n, r: kdf.r, p: kdf.p })
      : pbkdf2Sync(password, salt, kdf.c, 32, 'sha256')
  const cipher = createCipheriv('aes-128-ctr', key.subarray(0, 16), iv)
  const ciphertext = Buffer.concat([cipher.update(hexToBytes(privateKey)), cipher.final()])
  const kdfparams =
    kdf.kdf === 'scrypt' ? { dklen: 32, n: kdf.n, r: kdf.r, p: kdf.p, salt: salt.toString('hex') } : { c: kdf.c, dklen: 32, prf: 'hmac-sha256', salt: salt.toString('hex') }
  return {
    address: privateKeyToAccount(privateKey).address.slice(2).toLowerCase(),
    crypto: {
      cipher: 'aes-128-ctr',
      cipherparams: { iv: iv.toString('hex') },
      ciphertext: ciphertext.toString('hex'),
      kdf: kdf.kdf,
      kdfparams,
      mac: keccak256(concat([key.subarray(16, 32), ciphertext])).slice(2),
    },
    id: randomUUID(),
    version: 3,
  }
}
