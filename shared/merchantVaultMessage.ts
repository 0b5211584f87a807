import { concat, numberToHex, size, type Address, type Hex } from 'viem'
import { CodedError } from './codedError'
import type { MerchantVaultCall } from './merchantVaultCall'

/**
 * What the merchant's owner's wallet shows and signs for each of the merchant vault's operations
 * (contracts/MerchantVault.sol checks exactly these; the ERC-7730 descriptors in clear-signing/ word
 * them for clear-signing wallets): the operation's own fields, the vault, the last second the
 * signature is good for, and the operation itself (its userOpHash), so that it authorises nothing else.
 */
const tail = [
  { name: 'vault', type: 'address' },
  { name: 'validUntil', type: 'uint256' },
  { name: 'operation', type: 'bytes32' },
] as const

export const merchantVaultTypes = {
  Issue: [
    { name: 'registry', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'dueAt', type: 'uint64' },
    { name: 'metaHash', type: 'bytes32' },
    { name: 'tokenURI', type: 'string' },
    ...tail,
  ],
  Cancel: [{ name: 'registry', type: 'address' }, { name: 'invoice', type: 'uint256' }, ...tail],
  Refund: [
    { name: 'registry', type: 'address' },
    { name: 'invoice', type: 'uint256' },
    { name: 'payer', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    ...tail,
  ],
  Withdrawal: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint256' }, { name: 'to', type: 'address' }, ...tail],
  StartSession: [{ name: 'signer', type: 'address' }, { name: 'registry', type: 'address' }, { name: 'sessionUntil', type: 'uint256' }, ...tail],
  EndSession: [...tail],
} as const

export const merchantVaultDomainName = 'svc-checkout merchant vault'
export const merchantVaultDomainVersion = '1'

export type MerchantVaultMessageParameters = {
  chainId: number
  vault: Address
  call: MerchantVaultCall
  /** The last second the signature is good for (never 0: the EntryPoint would read it as forever). */
  validUntil: bigint
  /** The operation's userOpHash. */
  operation: Hex
}

/** The EIP-712 request the owner signs for `call`, one type per operation kind. */
export function merchantVaultTypedData({ chainId, vault, call, validUntil, operation }: MerchantVaultMessageParameters) {
  const { kind, ...fields } = call
  const primaryType = kind
  return {
    domain: { name: merchantVaultDomainName, version: merchantVaultDomainVersion, chainId, verifyingContract: vault },
    types: { [primaryType]: merchantVaultTypes[primaryType] } as Pick<typeof merchantVaultTypes, typeof primaryType>,
    primaryType,
    message: { ...fields, vault, validUntil, operation },
  }
}

export class OwnerSignatureError extends CodedError {
  override name = 'OwnerSignatureError'
  readonly code = 'OWNER_SIGNATURE_INVALID'
}

/** The operation's signature as the vault reads it: the message's end (6 bytes, big-endian seconds)
 * then the owner's 65-byte ECDSA signature of the typed message. */
export function ownerOperationSignature(validUntil: bigint, signature: Hex): Hex {
  if (validUntil <= 0n || validUntil >= 2n ** 48n) throw new OwnerSignatureError('validUntil must be a time after 1970 that fits in 48 bits')
  if (size(signature) !== 65) throw new OwnerSignatureError(`the owner's signature is ${size(signature)} bytes, not the 65 of an ECDSA signature`)
  return concat([numberToHex(validUntil, { size: 6 }), signature])
}
