import { getAddress, hexToNumber, isAddress, type Address, type Hex } from 'viem'
import { readFeeBps } from '../src/chain/readFeeBps'
import { readInvoice } from '../src/chain/readInvoice'
import { readEntryPointNonce, readPermitNonce } from '../src/chain/readNonces'
import { readBalance, readVault } from '../src/chain/readVault'
import type { PinnedDeployment } from '../shared/pinnedDeployment'
import { splitPermitSignature } from '../src/flow/splitPermitSignature'
import type { Funding } from '../shared/fundedPayCall'
import type { PermitSignature } from '../shared/payCall'
import { paymentTypedData } from '../shared/paymentMessage'
import { permitTypedDataJson } from '../shared/permit'
import { typedDataJson } from '../shared/typedDataJson'
import { fromWireUserOp, type WireUserOp } from '../shared/userOpWire'
import type { PermitToSign } from '../shared/wire'
import type { Eip1193Provider } from '../shared/eip1193'
import { onchainPaymentInvoice } from '../src/verify/paymentInvoice'
import { verifyFundingPermitToSign } from '../src/verify/verifyFundingPermitToSign'
import { verifyPermitToSign, type VerifyPermitToSignReturnType } from '../src/verify/verifyPermitToSign'
import { sameAddress } from '../src/verify/sameAddress'
import { verifyUserOperation } from '../src/verify/verifyUserOperation'
import type { RpcError } from '../shared/embedProtocol'


/** EIP-1193 4100: the host refuses to have its wallet sign this. */
function refused(message: string): RpcError {
  return { code: 4100, message }
}

export type CreateHostSigningParameters = {
  /** Pinned in the bridge's build: the same deployment the pay page was built with. */
  deployment: PinnedDeployment
  /** The invoice the host mounted, from its own mount options: never from the frame. */
  invoiceId: string
  now?: () => number
}

/**
 * The host page's side of every signature its wallet gives the checkout frame. The frame runs on the
 * checkout's origin and the wallet shows the merchant's: were the checkout compromised, it must get
 * nothing signed but this payment. So the host reads the chain itself, through its own wallet, and
 * runs the page's own verifiers: a permit only of the invoice amount read from the chain, from the
 * vault the pinned factory derives for the signing account, to the pinned registry; a funding permit
 * only from the signing account to that vault, of exactly what the vault lacks on-chain; an
 * operation's Payment message only, built here from an operation that pays exactly this invoice with
 * the permits this host signed (its hash computed here). It signs what it rebuilt, never the frame's
 * bytes.
 */
export function createHostSigning({ deployment, invoiceId, now = Date.now }: CreateHostSigningParameters) {
  /** The vault's permit and, when the payment is funded from the account, the funding signed before it. */
  let signedPermit: { owner: Address; permit: PermitSignature; funding: Funding | null } | null = null
  let signedFunding: { owner: Address; funding: Funding } | null = null

  /** Has the wallet sign typed data the verifier rebuilt; refuses what it did not pass. */
  async function signVerified(provider: Eip1193Provider, owner: Address, verdict: VerifyPermitToSignReturnType, what: string) {
    if (!verdict.ok) throw refused(`not this payment's ${what}: ${verdict.problems.map((problem) => problem.code).join(', ')}`)
    const signature = (await provider.request({ method: 'eth_signTypedData_v4', params: [owner, permitTypedDataJson(verdict.typedData)] })) as Hex
    return { signature, permit: splitPermitSignature(signature, verdict.typedData.message.deadline), message: verdict.typedData.message }
  }

  /** The chain as the host's wallet reads it: the pinned chain, the invoice still open, the account's vault. */
  async function payment(provider: Eip1193Provider, account: unknown) {
    if (typeof account !== 'string' || !isAddress(account)) throw refused('the signing account is not an address')
    const chainId = hexToNumber((await provider.request({ method: 'eth_chainId' })) as Hex)
    if (chainId !== deployment.chainId) throw refused(`the wallet is on chain ${chainId}, not the checkout's chain ${deployment.chainId}`)
    const owner = getAddress(account)
    const id = BigInt(invoiceId)
    const [record, { vault, deployed }] = await Promise.all([readInvoice(provider, deployment, id), readVault(provider, deployment, owner)])
    if (!record || record.status !== 1) throw refused(`invoice ${invoiceId} is not open on-chain`)
    const invoice = onchainPaymentInvoice(id, record, await readFeeBps(provider, deployment, record.merchant))
    return { owner, vault, deployed, invoice }
  }

  return {
    /** eth_signTypedData_v4 `[account, json]`: an EIP-2612 permit for this payment (the vault's, or
     * the account's funding of its vault), or nothing. */
    async signPermit(provider: Eip1193Provider, [account, json]: unknown[]): Promise<Hex> {
      const { owner, vault, invoice } = await payment(provider, account)
      const permitToSign = parsePermit(json)
      if (!permitToSign) throw refused('eth_signTypedData_v4 is relayed only for an EIP-2612 Permit')
      if (sameAddress(permitToSign.message.owner, owner)) {
        // the account's own funds: only to its own vault, only what the vault lacks, read here
        const [balance, nonce] = await Promise.all([readBalance(provider, deployment, vault), readPermitNonce(provider, deployment, owner)])
        // the vault's permit is signed next: that it does not end before this one is checked then
        const verdict = verifyFundingPermitToSign(permitToSign, { deployment, account: owner, vault, shortfall: invoice.amount - balance, nonce, now: now() })
        const { signature, permit, message } = await signVerified(provider, owner, verdict, 'funding permit')
        signedFunding = { owner, funding: { from: owner, to: vault, amount: message.value, permit } }
        return signature
      }
      const nonce = await readPermitNonce(provider, deployment, vault)
      const verdict = verifyPermitToSign(permitToSign, { deployment, vault, invoice, nonce, now: now() })
      const funding = signedFunding?.owner === owner ? signedFunding.funding : null
      if (verdict.ok && funding && verdict.typedData.message.deadline < funding.permit.deadline) {
        throw refused('FUNDING_OUTLIVES_PERMIT')
      }
      const { signature, permit } = await signVerified(provider, owner, verdict, 'permit')
      signedPermit = { owner, permit, funding }
      signedFunding = null
      return signature
    },

    /** `[wireUserOp, account]`: the operation that carries the permit this host signed, or nothing;
     * the wallet is asked to sign its Payment message, as the page would. */
    async signUserOperation(provider: Eip1193Provider, [wire, account]: unknown[]): Promise<Hex> {
      const { owner, vault, deployed, invoice } = await payment(provider, account)
      if (!signedPermit || signedPermit.owner !== owner) throw refused('no permit for this payment was signed here')
      let userOp
      try {
        userOp = fromWireUserOp(wire as WireUserOp)
      } catch {
        throw refused('the operation is not a v0.7 UserOperation')
      }
      const entryPointNonce = await readEntryPointNonce(provider, deployment, vault)
      const { permit, funding } = signedPermit
      const verdict = verifyUserOperation(userOp, {
        deployment,
        invoice,
        vault,
        owner,
        vaultDeployed: deployed,
        permit,
        ...(funding ? { funding } : {}),
        entryPointNonce,
        now: now(),
      })
      if (!verdict.ok) throw refused(`not this payment's operation: ${verdict.problems.map((problem) => problem.code).join(', ')}`)
      // the message is rebuilt here from the operation this host verified, never taken from the frame
      const typedData = typedDataJson(paymentTypedData(deployment.chainId, verdict.payment))
      return (await provider.request({ method: 'eth_signTypedData_v4', params: [owner, typedData] })) as Hex
    },
  }
}

/** The frame's typed data in the wire shape the page's verifier reads; null for anything else. */
function parsePermit(json: unknown): PermitToSign | null {
  try {
    const typed = JSON.parse(String(json)) as { domain?: Record<string, unknown>; types?: Record<string, unknown>; primaryType?: unknown; message?: Record<string, unknown> }
    const { domain, types, message } = typed
    if (!domain || !types || !message || !Array.isArray(types.Permit)) return null
    // the domain type is the wallet's business, the Permit struct the verifier's
    const { EIP712Domain: _, ...structs } = types
    const text = (value: unknown) => String(value)
    return {
      domain: { name: text(domain.name), version: text(domain.version), chainId: Number(domain.chainId), verifyingContract: text(domain.verifyingContract) as Address },
      types: structs as PermitToSign['types'],
      primaryType: typed.primaryType as 'Permit',
      message: {
        owner: text(message.owner) as Address,
        spender: text(message.spender) as Address,
        value: BigInt(text(message.value)).toString(),
        nonce: BigInt(text(message.nonce)).toString(),
        deadline: BigInt(text(message.deadline)).toString(),
      },
    }
  } catch {
    return null
  }
}
