import { getAddress, slice, type Address, type Hex } from 'viem'
import { decodeCall, encodeCall } from './abiCall'
import { callSelector } from './staticAbiCall'
import { CodedError } from './codedError'
import { vaultFactoryAbi, vaultSalt } from './vaultFactoryAbi'

const permitSignatureTuple = {
  type: 'tuple',
  components: [
    { name: 'deadline', type: 'uint256' },
    { name: 'v', type: 'uint8' },
    { name: 'r', type: 'bytes32' },
    { name: 's', type: 'bytes32' },
  ],
} as const

/** What the registry must hold for the invoice (contracts/PayerVault.sol's Terms): the vault pays
 * only an Issued invoice with exactly this number, merchant, token and amount, at exactly this fee. */
const termsTuple = {
  type: 'tuple',
  components: [
    { name: 'invoice', type: 'uint256' },
    { name: 'invoiceNumber', type: 'uint64' },
    { name: 'merchant', type: 'address' },
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'feeBps', type: 'uint16' },
  ],
} as const

const paymentInputs = [{ name: 'registry', type: 'address' }, { name: 'terms', ...termsTuple }, { name: 'permit', ...permitSignatureTuple }] as const

/** Only the fragments a payment uses: the widget bundles these, not the full contract ABIs. The
 * vault's two payments (contracts/PayerVault.sol): the only calls its operations may make. */
export const vaultPayAbi = [
  { type: 'function', name: 'payInvoice', stateMutability: 'nonpayable', inputs: paymentInputs, outputs: [] },
  {
    type: 'function',
    name: 'payInvoiceFromWallet',
    stateMutability: 'nonpayable',
    inputs: [...paymentInputs, { name: 'fromWallet', type: 'uint256' }, { name: 'funding', ...permitSignatureTuple }],
    outputs: [],
  },
] as const


export type PermitSignature = { deadline: bigint; v: number; r: Hex; s: Hex }

/** A payment from the vault: the invoice and what the registry must hold for it (the merchant's
 * number for it, merchant, token, amount, and the fee rate the merchant is charged: the vault reverts
 * on any other), with the vault's permit to the registry. */
export type PayCall = {
  registry: Address
  invoiceId: bigint
  invoiceNumber: bigint
  merchant: Address
  token: Address
  amount: bigint
  feeBps: number
  permit: PermitSignature
}

/** Why a callData is not exactly one of the vault's payments; the verifier words each for the payer. */
export type PayCallErrorCode = 'CALLDATA_UNDECODABLE' | 'CALLDATA_NOT_CANONICAL'

/** The code is the whole message: the verifier words it for the payer, the server only refuses. */
export class PayCallError extends CodedError {
  override readonly name = 'PayCallError'
  constructor(readonly code: PayCallErrorCode) {
    super(code)
  }
}

/** A permit signature as the vault's functions take it: the tuple's fields and nothing more. */
export const asTuple = ({ deadline, v, r, s }: PermitSignature) => ({ deadline, v, r, s })

/** The call's terms as the vault's functions take them. */
export const asTerms = ({ invoiceId, invoiceNumber, merchant, token, amount, feeBps }: PayCall) => ({ invoice: invoiceId, invoiceNumber, merchant, token, amount, feeBps })

/** The call's fields from decoded terms. */
export function fromTerms(terms: { invoice: bigint; invoiceNumber: bigint; merchant: Address; token: Address; amount: bigint; feeBps: number }) {
  return { invoiceId: terms.invoice, invoiceNumber: terms.invoiceNumber, merchant: getAddress(terms.merchant), token: getAddress(terms.token), amount: terms.amount, feeBps: terms.feeBps }
}

/** vault.payInvoice(registry, terms, permit): the only call a payment makes. */
export function encodePayCallData(call: PayCall): Hex {
  return encodeCall(vaultPayAbi[0], [call.registry, asTerms(call), asTuple(call.permit)])
}

/** The one reading of a payment call, for the server and the widget alike: exactly payInvoice, in
 * bytes that re-encode to themselves (ABI decoding tolerates trailing bytes and odd offsets, which
 * would carry what no check saw). Throws PayCallError otherwise; whether the registry, invoice and
 * figures are the right ones is the caller's to check. */
export function decodePayCallData(callData: Hex): PayCall {
  let call: PayCall
  try {
    const [registry, terms, permit] = decodeCall(vaultPayAbi[0], callData)
    call = { registry: getAddress(registry), ...fromTerms(terms), permit: { ...permit } }
  } catch {
    throw new PayCallError('CALLDATA_UNDECODABLE')
  }
  if (!reencodes(() => encodePayCallData(call), callData)) throw new PayCallError('CALLDATA_NOT_CANONICAL')
  return call
}

/** Whether `encode` gives back exactly `callData`; a decoded value the ABI cannot re-encode (a v
 * above 255, say) was never canonical. */
export function reencodes(encode: () => Hex, callData: Hex): boolean {
  try {
    return encode() === callData.toLowerCase()
  } catch {
    return false
  }
}

export function encodeCreateVault(owner: Address): Hex {
  return encodeCall(vaultFactoryAbi[0], [owner, vaultSalt])
}

/** factoryData that calls something other than createAccount: the operation is not ours. */
export class FactoryCallError extends CodedError {
  override name = 'FactoryCallError'
  readonly code = 'FACTORY_CALL_UNEXPECTED'
}

export function decodeCreateVault(factoryData: Hex): { owner: Address; salt: bigint } {
  const createAccount = vaultFactoryAbi[0]
  const selector = slice(factoryData, 0, 4)
  if (selector !== callSelector(createAccount)) throw new FactoryCallError(`the factory call is ${selector}, not createAccount: this operation does not create a vault`)
  const [owner, salt] = decodeCall(createAccount, factoryData)
  return { owner: getAddress(owner), salt }
}
