import type { ChainInvoice } from '../../verify/confirmInvoice'
import type { checkInvoice } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import { moveBackCalls } from './moveBackCalls'
import { paymentCalls } from './paymentCalls'
import type { SmartWalletOutcome } from './smartWalletEvent'
import type { SmartWalletState } from './smartWalletState'

/** A wallet_getCallsStatus unanswered in this long counts as no word from the wallet. */
const callsStatusTimeoutMs = 5_000

/** A read that failed or hung is no answer (null), never a 'no'. */
async function settle<T>(read: Promise<T>, timeoutMs: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    return await Promise.race([read, new Promise<null>((resolve) => (timer = setTimeout(resolve, timeoutMs, null)))])
  } catch {
    return null
  } finally {
    clearTimeout(timer)
  }
}

/** The work of the one-prompt payment's states, as runEffect does it for the vault flow's. The page
 * loads it when the payer presses Pay, so it imports nothing the page's other chunks hold (a module
 * two chunks share becomes a third file the page waits on): `check` is the flow's checkInvoice. */
export async function runSmartWalletEffect(
  state: Exclude<SmartWalletState, { name: 'smartWallet' }>,
  { invoiceId, deployment, wallet, chain, clock }: PaymentFlowDependencies,
  check: typeof checkInvoice,
): Promise<SmartWalletOutcome | null> {
  switch (state.name) {
    case 'sendingCalls': {
      // built here from the pinned deployment and the chain's invoice: nothing the service said goes in
      const calls = paymentCalls({ deployment, invoiceId: BigInt(invoiceId), amount: BigInt(state.invoice.amount) })
      // resolveSmartPayer entered this payment only for a wallet that sends calls
      const callsId = await wallet.sendCalls!({ from: state.payer.owner, calls })
      return { type: 'callsSent', callsId, at: clock.now() }
    }

    case 'followingCalls': {
      await clock.sleep(Math.max(0, state.nextCheckAt - clock.now()))
      const id = BigInt(invoiceId)
      const readChain = async (): Promise<ChainInvoice> => {
        const record = await chain.invoiceOf(id)
        return { record, txHash: record?.status === 2 ? await chain.settlementOf(id) : null }
      }
      const [status, read] = await Promise.all([wallet.callsStatus ? settle(wallet.callsStatus(state.callsId), callsStatusTimeoutMs) : null, settle(readChain(), 10_000)])
      return { type: 'callsRead', wallet: status ?? 'unknown', check: check(invoiceId, state.invoice, read ? [read] : [], deployment), at: clock.now() }
    }
    case 'movingBack': {
      // built from the pinned deployment and the chain's reads; the account pays its fee (the
      // checkout's paymaster sponsors payments only)
      const calls = moveBackCalls({ deployment, account: state.payer.owner, stranded: state.stranded })
      await wallet.sendCalls!({ from: state.payer.owner, calls, sponsored: false })
      return { type: 'callsSent', callsId: '', at: clock.now() }
    }
    case 'followingMoveBack': {
      await clock.sleep(Math.max(0, state.nextCheckAt - clock.now()))
      // the chain says whether it moved; the wallet's word is not asked
      return { type: 'vaultRead', balance: await settle(chain.balanceOf(state.stranded.vault), 10_000), at: clock.now() }
    }
  }
}
