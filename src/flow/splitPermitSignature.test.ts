import { concat, encodeAbiParameters, parseErc6492Signature, parseSignature, serializeErc6492Signature, serializeSignature, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { splitPermitSignature, unwrapErc6492 } from './splitPermitSignature'

const erc6492Magic: Hex = '0x6492649264926492649264926492649264926492649264926492649264926492'

async function signed() {
  const account = privateKeyToAccount(generatePrivateKey())
  const signature = await account.signMessage({ message: 'permit' })
  const { r, s, yParity } = parseSignature(signature)
  return { signature, r, s, yParity }
}

describe('splitPermitSignature', () => {
  test('default: splits 65 bytes into v, r, s with v as 27 or 28', async () => {
    const { signature, r, s, yParity } = await signed()
    expect(splitPermitSignature(signature, 99n)).toEqual({ deadline: 99n, v: yParity + 27, r, s })
  })

  test('behavior: accepts a v given as a y-parity bit', async () => {
    const { r, s, yParity } = await signed()
    const raw = serializeSignature({ r, s, yParity }).slice(0, -2) + (yParity === 0 ? '00' : '01')
    expect(splitPermitSignature(raw as Hex, 1n).v).toBe(yParity + 27)
  })

  test('behavior: unwraps a counterfactual wallet signature (ERC-6492)', async () => {
    const { signature, r, s, yParity } = await signed()
    const wrapped = concat([
      encodeAbiParameters([{ type: 'address' }, { type: 'bytes' }, { type: 'bytes' }], [`0x${'11'.repeat(20)}`, '0xdeadbeef', signature]),
      erc6492Magic,
    ])
    expect(splitPermitSignature(wrapped, 5n)).toEqual({ deadline: 5n, v: yParity + 27, r, s })
  })

  test('behavior: refuses a signature that is not 65 bytes', () => {
    expect(() => splitPermitSignature(`0x${'ab'.repeat(64)}`, 1n)).toThrow('a permit signature is 65 bytes, not 64')
  })

  test('behavior: refuses a recovery byte ecrecover would not accept', async () => {
    const { signature } = await signed()
    expect(() => splitPermitSignature(`${signature.slice(0, -2)}25` as Hex, 1n)).toThrow("a permit signature's v is 0, 1, 27 or 28, not 37")
  })

  test('behavior: unwraps ERC-6492 exactly as viem does, wrapped or not, any inner length', async () => {
    const { signature } = await signed()
    for (const inner of [signature, '0x' as Hex, `0x${'cd'.repeat(33)}` as Hex, `0x${'ef'.repeat(100)}` as Hex]) {
      const wrapped = serializeErc6492Signature({ address: `0x${'22'.repeat(20)}`, data: `0x${'ab'.repeat(70)}`, signature: inner })
      expect(unwrapErc6492(wrapped)).toBe(parseErc6492Signature(wrapped).signature)
      expect(unwrapErc6492(inner)).toBe(inner)
    }
  })

  test('behavior: refuses an ERC-6492 wrapper whose signature runs past its end', async () => {
    const { signature } = await signed()
    const wrapped = serializeErc6492Signature({ address: `0x${'22'.repeat(20)}`, data: '0xdeadbeef', signature })
    const cut = `${wrapped.slice(0, -64 - 2 * 40)}${erc6492Magic.slice(2)}` as Hex
    expect(() => splitPermitSignature(cut, 1n)).toThrow('the wallet wrapped its permit signature (ERC-6492) in a form that does not decode: sign again, or pay with another wallet')
  })
})
