import { hexToNumber, parseErc6492Signature, size, slice, type Hex } from 'viem'
import type { PermitSignature } from '../../shared/payCall'
import { ecrecoverV } from '../../shared/permit'
import { WalletError } from '../wallet/walletError'

/** The vault hands the permit to registry.pay as v, r, s. A counterfactual smart-account wallet wraps what it
 * signs for ERC-6492; the token wants the bare 65 bytes. (Split by hand: viem's parseSignature
 * pulls in a whole elliptic-curve library the widget does not otherwise need.) */
export function splitPermitSignature(signature: Hex, deadline: bigint): PermitSignature {
  const bare = parseErc6492Signature(signature).signature
  if (size(bare) !== 65) throw new WalletError('SIGNATURE_MALFORMED', `a permit signature is 65 bytes, not ${size(bare)}: the wallet signed in a form the token cannot check; sign again, or pay with another wallet`)
  const v = hexToNumber(slice(bare, 64, 65))
  if (![0, 1, 27, 28].includes(v)) throw new WalletError('SIGNATURE_MALFORMED', `a permit signature's v is 0, 1, 27 or 28, not ${v}: the wallet signed in a form the token cannot check; sign again, or pay with another wallet`)
  return { deadline, v: ecrecoverV(v), r: slice(bare, 0, 32), s: slice(bare, 32, 64) }
}
