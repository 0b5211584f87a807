import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { PaymentApi } from '../api/createPayApi'
import type { PaymentChain } from '../chain/createChainReader'
import type { verifyPreparedPayment } from '../verify/verifyPreparedPayment'
import type { verifyPermitToSign } from '../verify/verifyPermitToSign'
import type { verifyFundingPermitToSign } from '../verify/verifyFundingPermitToSign'
import type { PaymentWallet } from '../wallet/paymentWallet'
import type { simulatePayment } from '../chain/simulatePayment'

type MaybeAsync<F extends (...args: never[]) => unknown> = (...args: Parameters<F>) => ReturnType<F> | Promise<ReturnType<F>>

/** The verifiers, or loaders of them: the page fetches them with the first payment step, not with the
 * invoice (they bundle the userOpHash and ABI code a payer who only reads the invoice never needs). */
export type PaymentVerifier = {
  verifyPermitToSign: MaybeAsync<typeof verifyPermitToSign>
  verifyFundingPermitToSign: MaybeAsync<typeof verifyFundingPermitToSign>
  verifyPreparedPayment: MaybeAsync<typeof verifyPreparedPayment>
  /** Runs the verified operation through the pinned RPC before the payer is asked to sign it. */
  simulatePayment: typeof simulatePayment
}

export type PaymentClock = { now(): number; sleep(ms: number): Promise<void> }

export type PaymentFlowDependencies = {
  invoiceId: string
  /** Pinned in the build: what the verifier holds the server to. */
  deployment: PinnedDeployment
  api: PaymentApi
  wallet: PaymentWallet
  chain: PaymentChain
  verifier: PaymentVerifier
  clock: PaymentClock
}
