import { hexToNumber, size, slice, type Hex } from 'viem'
import type { PermitSignature } from '../../shared/payCall'
import { ecrecoverV } from '../../shared/permit'
import { WalletError } from '../wallet/walletError'

const erc6492Magic = '6492'.repeat(16)

/** The signature an ERC-6492 wrapper holds (abi.encode(factory, factoryCalldata, signature) ++ magic), or
 * the signature itself when it is not wrapped. Read by hand, not with viem's parseErc6492Signature, whose
 * generic ABI decoder would otherwise load with the page before Pay (its size budget). */
export function unwrapErc6492(signature: Hex): Hex {
  if (!signature.endsWith(erc6492Magic)) return signature
  const body = signature.slice(2, -64)
  const word = (at: number) => Number.parseInt(body.slice(at * 2, at * 2 + 64), 16)
  // the third head word is the signature's offset; its length is the word there, its bytes follow
  const offset = word(64)
  const length = word(offset)
  const start = (offset + 32) * 2
  const inner = body.slice(start, start + length * 2)
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || inner.length !== length * 2)
    throw new WalletError('SIGNATURE_MALFORMED', 'the wallet wrapped its permit signature (ERC-6492) in a form that does not decode: sign again, or pay with another wallet')
  return `0x${inner}`
}

/** The vault hands the permit to registry.pay as v, r, s. A counterfactual smart-account wallet wraps what it
 * signs for ERC-6492; the token wants the bare 65 bytes. (Split by hand: viem's parseSignature
 * pulls in a whole elliptic-curve library the widget does not otherwise need.) */
export function splitPermitSignature(signature: Hex, deadline: bigint): PermitSignature {
  const bare = unwrapErc6492(signature)
  if (size(bare) !== 65) throw new WalletError('SIGNATURE_MALFORMED', `a permit signature is 65 bytes, not ${size(bare)}: the wallet signed in a form the token cannot check; sign again, or pay with another wallet`)
  const v = hexToNumber(slice(bare, 64, 65))
  if (![0, 1, 27, 28].includes(v)) throw new WalletError('SIGNATURE_MALFORMED', `a permit signature's v is 0, 1, 27 or 28, not ${v}: the wallet signed in a form the token cannot check; sign again, or pay with another wallet`)
  return { deadline, v: ecrecoverV(v), r: slice(bare, 0, 32), s: slice(bare, 32, 64) }
}
