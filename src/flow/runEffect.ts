import type { Address } from 'viem'
import { toWireUserOp } from '../../shared/userOpWire'
import type { WireInvoice } from '../../shared/wire'
import type { ChainInvoice } from '../verify/confirmInvoice'
import { paymentInvoice } from '../verify/paymentInvoice'
import { chainShownInvoice } from '../verify/chainShownInvoice'
import { ChainUnreadableError } from './failure'
import { checkInvoice } from './checkInvoice'
import type { PaymentOutcome, VaultOnChain } from './paymentEvent'
import type { PaymentFlowDependencies } from './paymentFlowDependencies'
import type { PaymentChain } from '../chain/createChainReader'
import type { PaymentState } from './paymentState'
import { splitPermitSignature } from './splitPermitSignature'
import { permitExpiring, sponsorshipExpiring } from './permitExpiring'
import { earliestDeadline } from '../../shared/permit'
import type { PermitSignature } from '../../shared/payCall'
import { resolveSmartPayer } from './smartWallet/resolveSmartPayer'

/** A signed permit as the API carries it: the deadline as a decimal string. */
function permitWire({ deadline, v, r, s }: PermitSignature) {
  return { deadline: deadline.toString(), v, r, s }
}

/** How long the first paint waits for the chain before it shows the service's figures as unconfirmed. */
export const firstChainReadMs = 4_000

/** While the invoice is unconfirmed, the chain is read again after this long, doubling up to a minute. */
export function recheckDelayMs(rechecks: number): number {
  return Math.min(60_000, 2_000 * 2 ** rechecks)
}

/** The registry's record of the invoice and, once Paid, its settlement transaction. */
async function readChainInvoice(read: Pick<PaymentChain, 'invoiceOf' | 'settlementOf'>, id: bigint): Promise<ChainInvoice> {
  const record = await read.invoiceOf(id)
  // Status 2 is Paid: the receipt's transaction comes from the registry's own event, not the service
  return { record, txHash: record?.status === 2 ? await read.settlementOf(id) : null }
}

/** A read that failed is no answer, not a 'no': the caller decides what an absent answer means. */
async function settle<T>(read: Promise<T>, timeoutMs?: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = timeoutMs === undefined ? null : new Promise<null>((resolve) => (timer = setTimeout(resolve, timeoutMs, null)))
  try {
    return await (timeout ? Promise.race([read, timeout]) : read)
  } catch {
    return null
  } finally {
    clearTimeout(timer)
  }
}

/** The work a state stands for, reported as one outcome; null for states that wait for the payer.
 * Throws whatever the dependency threw: the driver turns it into a `failed` outcome. */
export async function runEffect(state: PaymentState, dependencies: PaymentFlowDependencies): Promise<PaymentOutcome | null> {
  const { api, wallet, chain, verifier, clock, deployment, invoiceId } = dependencies
  const id = BigInt(invoiceId)

  /** The invoice held to the chain's record; with `vault`, the vault's nonce and the chain's time too.
   * `invoiceRead`: a read of the record already under way. */
  const readChain = async (server: WireInvoice, vault?: Address, invoiceRead = settle(readChainInvoice(chain, id))): Promise<PaymentOutcome> => {
    const [read, vaultOnChain] = await Promise.all([invoiceRead, vault ? settle(Promise.all([chain.entryPointNonceOf(vault), chain.blockTime()])) : null])
    const check = checkInvoice(invoiceId, server, read ? [read] : [], deployment)
    const onChain: VaultOnChain | null = vaultOnChain ? { nonce: vaultOnChain[0], blockTime: vaultOnChain[1] } : null
    return { type: 'chainRead', check, vault: onChain, at: clock.now() }
  }
  // the page never waits on the chain for long: it shows the service's figures as unconfirmed instead
  const firstChainRead = () => settle(readChainInvoice(chain, id), firstChainReadMs)

  switch (state.name) {
    case 'loading': {
      if (state.notFoundByService) {
        const read = await settle(readChainInvoice(chain, id))
        const invoice = read && chainShownInvoice(invoiceId, read, deployment, null)
        return { type: 'notFoundChecked', chain: !read ? { kind: 'unreadable' } : invoice ? { kind: 'present', invoice } : { kind: 'absent' }, at: clock.now() }
      }
      // the service's invoice and the chain's at once
      const invoiceRead = firstChainRead()
      return readChain(await api.getInvoice(invoiceId), undefined, invoiceRead)
    }

    case 'checking':
      // entered as the page hydrates the invoice the server rendered: the read (encoding, hashing) waits
      // for a task of its own, so that a phone can answer a tap between the two
      await clock.sleep(0)
      return readChain(state.invoice, undefined, firstChainRead())

    case 'ready':
      if (state.invoice.confirmed) return null
      await clock.sleep(recheckDelayMs(state.rechecks))
      return readChain(state.invoice)

    case 'refreshing':
      return readChain(state.invoice)

    case 'pending':
      await clock.sleep(Math.max(0, state.nextCheckAt - clock.now()))
      return readChain(state.invoice, state.payer.vault)

    case 'connecting': {
      const owner = await wallet.connect()
      const chainId = await wallet.chainId()
      if (chainId !== deployment.chainId) return { type: 'wrongNetwork', chainId, wantedChainId: deployment.chainId }
      // two views of the chain, the pinned RPC's and the wallet's; the service's invoice is held to both.
      // The pinned RPC's is the one that confirms: a wallet is the payer's choice of node, and one that
      // lies alone would have the payer sign for its figures, so without the pinned read nothing goes on
      const [pinned, walletRead] = await Promise.all([settle(readChainInvoice(chain, id)), settle(readChainInvoice({ ...chain, invoiceOf: wallet.invoiceOf }, id))])
      if (!pinned) throw new ChainUnreadableError('the pinned RPC could not read the invoice: a wallet\'s read alone confirms nothing')
      const check = checkInvoice(invoiceId, state.invoice, walletRead ? [pinned, walletRead] : [pinned], deployment)
      // a smart wallet that pays in one prompt, sponsored, from the account itself needs no vault
      const smart = await resolveSmartPayer(owner, check, dependencies)
      if (smart) return smart
      const { vault, deployed } = await chain.vaultOf(owner)
      const balance = await chain.balanceOf(vault)
      const payer = { owner, vault, deployed, balance, ...(wallet.sendsTransactions() ? {} : { sendsTransactions: false as const }) }
      // only a vault that lacks funds asks what the wallet itself holds
      if (check.kind !== 'confirmed' || balance >= BigInt(check.invoice.amount)) return { type: 'payerResolved', payer, check }
      return { type: 'payerResolved', payer, check, accountBalance: await chain.balanceOf(owner) }
    }

    case 'switchingNetwork':
      await wallet.switchChain(state.wantedChainId)
      return { type: 'networkSwitched' }

    case 'requestingPermit': {
      const { owner, vault } = state.payer
      const invoice = paymentInvoice(state.invoice)
      const [{ permitToSign, fundingPermitToSign }, nonce, funds] = await Promise.all([
        api.requestPermit(invoiceId, { payerAddress: vault, ...(state.fromWallet ? { fundingFrom: owner } : {}) }),
        chain.permitNonceOf(vault),
        // what the vault lacks and the account's permit nonce, read now from the chain, not the service
        state.fromWallet ? Promise.all([chain.balanceOf(vault), chain.permitNonceOf(owner)]) : null,
      ])
      // funded since it was read (the payer topped it up, or anyone sent it the token): nothing is
      // short any more, so the service rightly offers no funding; start again from the chain's view
      if (funds && funds[0] >= invoice.amount) return { type: 'vaultFunded' }
      const now = clock.now()
      const verdict = await verifier.verifyPermitToSign(permitToSign, { deployment, vault, invoice, nonce, now })
      if (!funds || !fundingPermitToSign) return { type: 'permitReceived', verdict }
      const [vaultBalance, accountNonce] = funds
      const funding = await verifier.verifyFundingPermitToSign(fundingPermitToSign, {
        deployment,
        account: owner,
        vault,
        shortfall: invoice.amount - vaultBalance,
        nonce: accountNonce,
        permitDeadline: BigInt(permitToSign.message.deadline),
        now,
      })
      return { type: 'permitReceived', verdict, funding }
    }

    case 'sendingToVault':
      await wallet.sendToVault({ token: deployment.token, vault: state.payer.vault, amount: state.missing })
      return { type: 'vaultFunded' }

    case 'signingFunding': {
      const signature = await wallet.signTypedData(state.typedData)
      const { owner, spender, value, deadline } = state.typedData.message
      return { type: 'fundingSigned', funding: { from: owner, to: spender, amount: value, permit: splitPermitSignature(signature, deadline) } }
    }

    case 'signingPermit': {
      const signature = await wallet.signTypedData(state.typedData)
      return { type: 'permitSigned', permit: splitPermitSignature(signature, state.typedData.message.deadline) }
    }

    case 'preparing': {
      const { payer, permit, funding } = state
      if (permitExpiring(earliestDeadline(permit, funding?.permit), clock.now())) return { type: 'permitExpiring' }
      const prepared = await api.prepare(invoiceId, {
        payerAddress: payer.vault,
        ownerAddress: payer.owner,
        permit: permitWire(permit),
        ...(funding ? { funding: { from: funding.from, amount: funding.amount.toString(), permit: permitWire(funding.permit) } } : {}),
      })
      return { type: 'prepared', prepared }
    }

    case 'verifying': {
      const { payer, permit, funding, prepared } = state
      // read now, not at connect: an earlier operation of this vault may have deployed it since
      const [entryPointNonce, { deployed }] = await Promise.all([chain.entryPointNonceOf(payer.vault), chain.vaultOf(payer.owner)])
      const verdict = await verifier.verifyPreparedPayment({
        deployment,
        invoice: paymentInvoice(state.invoice),
        vault: payer.vault,
        owner: payer.owner,
        vaultDeployed: deployed,
        permit,
        funding,
        entryPointNonce,
        now: clock.now(),
        prepared,
      })
      if (!verdict.ok) return { type: 'verified', verdict }
      // decoded and checked is not enough: the exact operation is run on the chain first, and only one
      // that moves exactly this payment is offered for signing
      const simulation = await verifier.simulatePayment({
        call: chain.call,
        deployment,
        userOp: verdict.userOp,
        vault: payer.vault,
        account: funding ? payer.owner : null,
        merchant: state.invoice.merchant,
        amount: BigInt(state.invoice.amount),
      })
      if (!simulation.ok) return { type: 'verified', verdict: { ok: false, problems: simulation.problems } }
      return { type: 'verified', verdict, simulated: simulation.effect }
    }

    case 'signingOperation': {
      if (permitExpiring(earliestDeadline(state.permit, state.funding?.permit), clock.now())) return { type: 'permitExpiring' }
      if (sponsorshipExpiring(state.window.validUntil, clock.now())) return { type: 'sponsorshipExpiring' }
      const signature = await wallet.signUserOperation({ userOp: state.userOp, userOpHash: state.userOpHash, payment: state.payment })
      return { type: 'operationSigned', signature }
    }

    case 'submitting': {
      const { permit } = state
      // a resend is of an operation already handed over: only the chain can say it lapsed
      if (!state.resend && permitExpiring(earliestDeadline(permit, state.funding?.permit), clock.now())) return { type: 'permitExpiring' }
      // signed after its sponsorship ran out (the payer took long in the wallet): it could never run
      if (!state.resend && sponsorshipExpiring(state.window.validUntil, clock.now())) return { type: 'sponsorshipExpiring' }
      const result = await api.submit(invoiceId, { userOp: toWireUserOp(state.userOp), permitSignature: { v: permit.v, r: permit.r, s: permit.s } })
      return { type: 'submitted', result, at: clock.now() }
    }

    case 'sendingCalls':
    case 'followingCalls':
      // fetched when the payer presses Pay: a payer with a vault never loads it
      return (await import('./smartWallet/runSmartWalletEffect')).runSmartWalletEffect(state, dependencies, checkInvoice)

    case 'idle':
    case 'smartWallet':
    case 'notFound':
    case 'paid':
    case 'canceled':
    case 'wrongNetwork':
    case 'connected':
    case 'insufficientBalance':
    case 'unsafe':
    case 'permitExpired':
    case 'error':
      return null
  }
}
