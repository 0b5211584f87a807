import { toWireUserOp } from '../shared/userOpWire'
import { paymentInvoice } from '../verify/paymentInvoice'
import { verifyOnchainInvoice } from '../verify/verifyOnchainInvoice'
import type { PaymentOutcome } from './paymentEvent'
import type { PaymentFlowDeps } from './paymentFlowDeps'
import type { PaymentState } from './paymentState'
import { splitPermitSignature } from './permitSignature'
import { permitExpiring } from './permitWindow'

/** The work a state stands for, reported as one outcome; null for states that wait for the payer.
 * Throws whatever the dependency threw: the driver turns it into a `failed` outcome. */
export async function runEffect(state: PaymentState, deps: PaymentFlowDeps): Promise<PaymentOutcome | null> {
  const { api, wallet, chain, verifier, clock, deployment, invoiceId } = deps
  const readInvoice = async (): Promise<PaymentOutcome> => ({ type: 'invoiceRead', invoice: await api.getInvoice(invoiceId), at: clock.now() })

  switch (state.name) {
    case 'loading':
    case 'reconciling':
    case 'refreshing':
      return readInvoice()

    case 'pending':
      await clock.sleep(Math.max(0, state.nextCheckAt - clock.now()))
      return readInvoice()

    case 'connecting': {
      const owner = await wallet.connect()
      const chainId = await wallet.chainId()
      if (chainId !== deployment.chainId) return { type: 'wrongNetwork', chainId, wantedChainId: deployment.chainId }
      // read through the wallet, once it is on the pinned chain: the server's invoice is held to the registry's
      const onchain = verifyOnchainInvoice(invoiceId, state.invoice, await chain.invoiceOf(BigInt(invoiceId)))
      const { vault, deployed } = await chain.vaultOf(owner)
      return { type: 'payerResolved', payer: { owner, vault, deployed, balance: await chain.balanceOf(vault) }, onchain }
    }

    case 'switchingNetwork':
      await wallet.switchChain(state.wantedChainId)
      return { type: 'networkSwitched' }

    case 'requestingPermit': {
      const { permitToSign, invoice } = await api.requestPermit(invoiceId, { payerAddress: state.payer.vault })
      const verdict = verifier.verifyPermitToSign(permitToSign, {
        deployment,
        vault: state.payer.vault,
        invoice: paymentInvoice(state.invoice),
        now: clock.now(),
      })
      return { type: 'permitReceived', invoice, verdict }
    }

    case 'signingPermit': {
      const signature = await wallet.signTypedData(state.typedData)
      return { type: 'permitSigned', permit: splitPermitSignature(signature, state.typedData.message.deadline) }
    }

    case 'preparing': {
      const { payer, permit } = state
      if (permitExpiring(permit.deadline, clock.now())) return { type: 'permitExpiring' }
      const prepared = await api.prepare(invoiceId, {
        payerAddress: payer.vault,
        ownerAddress: payer.owner,
        permit: { deadline: permit.deadline.toString(), v: permit.v, r: permit.r, s: permit.s },
      })
      return { type: 'prepared', prepared }
    }

    case 'verifying': {
      const { payer, permit, prepared } = state
      const verdict = verifier.verifyPreparedPayment({
        deployment,
        invoice: paymentInvoice(state.invoice),
        vault: payer.vault,
        owner: payer.owner,
        vaultDeployed: payer.deployed,
        permit,
        prepared,
      })
      return { type: 'verified', verdict }
    }

    case 'signingOperation':
      if (permitExpiring(state.permit.deadline, clock.now())) return { type: 'permitExpiring' }
      return { type: 'operationSigned', signature: await wallet.signUserOpHash(state.userOpHash) }

    case 'submitting': {
      const { permit } = state
      if (permitExpiring(permit.deadline, clock.now())) return { type: 'permitExpiring' }
      const result = await api.submit(invoiceId, { userOp: toWireUserOp(state.userOp), permitSignature: { v: permit.v, r: permit.r, s: permit.s } })
      return { type: 'submitted', result, at: clock.now() }
    }

    case 'idle':
    case 'notFound':
    case 'ready':
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
