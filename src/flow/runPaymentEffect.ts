import type { toWireUserOp } from '../../shared/userOpWire'
import type { earliestDeadline } from '../../shared/permit'
import type { PermitSignature } from '../../shared/payCall'
import type { paymentInvoice } from '../verify/paymentInvoice'
import type { PaymentOutcome } from './paymentEvent'
import type { PaymentFlowDependencies } from './paymentFlowDependencies'
import type { PaymentState } from './paymentState'
import type { permitExpiring, sponsorshipExpiring } from './permitExpiring'
import type { splitPermitSignature } from './splitPermitSignature'

/** What the steps share with the page's first chunks, handed in by runEffect rather than imported: a
 * module this chunk and those both import would become a third file the page waits on. */
export type PaymentStepHelpers = {
  toWireUserOp: typeof toWireUserOp
  earliestDeadline: typeof earliestDeadline
  paymentInvoice: typeof paymentInvoice
  permitExpiring: typeof permitExpiring
  sponsorshipExpiring: typeof sponsorshipExpiring
  splitPermitSignature: typeof splitPermitSignature
}

/** A signed permit as the API carries it: the deadline as a decimal string. */
function permitWire({ deadline, v, r, s }: PermitSignature) {
  return { deadline: deadline.toString(), v, r, s }
}

/** The states from Pay until the signed operation is handed over. */
export type PaymentStepState = Extract<PaymentState, { name: 'requestingPermit' | 'sendingToVault' | 'signingFunding' | 'signingPermit' | 'preparing' | 'verifying' | 'signingOperation' | 'submitting' }>

/** The work of the payment's own steps, as runEffect does it for the others: a chunk of its own,
 * fetched once the payer has connected, so the page up to the Pay button carries none of it. Throws
 * whatever the dependency threw: the driver turns it into a `failed` outcome. */
export async function runPaymentEffect(
  state: PaymentStepState,
  { api, wallet, chain, verifier, clock, deployment, invoiceId }: PaymentFlowDependencies,
  { toWireUserOp, earliestDeadline, paymentInvoice, permitExpiring, sponsorshipExpiring, splitPermitSignature }: PaymentStepHelpers,
): Promise<PaymentOutcome> {
  switch (state.name) {
    case 'requestingPermit': {
      const { owner, vault } = state.payer
      // the permit names no fee: only the operation's payment does, read from the chain when it is verified
      const invoice = paymentInvoice(state.invoice, 0)
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
      // read now, not at connect: an earlier operation of this vault may have deployed it since, and
      // the fee the operation names must be the rate the registry charges the merchant now
      const [entryPointNonce, { deployed }, feeBps] = await Promise.all([
        chain.entryPointNonceOf(payer.vault),
        chain.vaultOf(payer.owner),
        chain.feeBpsOf(state.invoice.merchant),
      ])
      const verdict = await verifier.verifyPreparedPayment({
        deployment,
        invoice: paymentInvoice(state.invoice, feeBps),
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
  }
}
