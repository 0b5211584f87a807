import { hexToNumber, parseErc6492Signature, size, slice, type Hex } from 'viem'
import type { PermitSignature } from '../shared/payCall'

/** registry.pay takes the permit as v, r, s. A counterfactual smart-account wallet wraps what it
 * signs for ERC-6492; the token wants the bare 65 bytes. (Split by hand: viem's parseSignature
 * pulls in a whole elliptic-curve library the widget does not otherwise need.) */
export function splitPermitSignature(signature: Hex, deadline: bigint): PermitSignature {
  const bare = parseErc6492Signature(signature).signature
  if (size(bare) !== 65) throw new Error(`a permit signature is 65 bytes, not ${size(bare)}`)
  const v = hexToNumber(slice(bare, 64, 65))
  return { deadline, v: v < 27 ? v + 27 : v, r: slice(bare, 0, 32), s: slice(bare, 32, 64) }
}
