import type { Address } from 'viem'
import type { ChainInvoice } from '../../verify/confirmInvoice'
import { paysInOnePrompt } from '../../wallet/readWalletCapabilities'
import { WalletError } from '../../wallet/walletError'
import { checkInvoice, type CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import { paymentCalls } from './paymentCalls'
import type { SmartWalletOutcome } from './smartWalletEvent'
import type { SmartWalletState } from './smartWalletState'

/** A wallet that does not answer wallet_getCapabilities in this long is taken to have none. */
export const capabilitiesTimeoutMs = 5_000
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

/**
 * At connect, after the invoice was held to the chain: the one-prompt payment when the wallet runs
 * atomic batches with a paymaster service for this account on the pinned chain and the account
 * itself holds the amount; null (the vault flow) otherwise, and for any wallet that cannot say.
 */
export async function resolveSmartPayer(owner: Address, check: CheckInvoiceReturnType, { wallet, chain }: PaymentFlowDependencies): Promise<SmartWalletOutcome | null> {
  if (!wallet.capabilities || !wallet.sendCalls || check.kind !== 'confirmed' || check.invoice.status !== 'Issued') return null
  const capabilities = await settle(wallet.capabilities(owner), capabilitiesTimeoutMs)
  if (!capabilities || !paysInOnePrompt(capabilities)) return null
  const balance = await chain.balanceOf(owner)
  if (balance < BigInt(check.invoice.amount)) return null
  return { type: 'smartPayerResolved', payer: { account: owner, balance }, check }
}

/** The work of the one-prompt payment's states, as runEffect does it for the vault flow's. */
export async function runSmartWalletEffect(state: SmartWalletState, { invoiceId, deployment, wallet, chain, clock }: PaymentFlowDependencies): Promise<SmartWalletOutcome | null> {
  switch (state.name) {
    case 'smartWallet':
      return null

    case 'sendingCalls': {
      if (!wallet.sendCalls) throw new WalletError('CALLS_UNSUPPORTED', 'this wallet cannot send a batch of calls: connect again to pay from a vault')
      // built here from the pinned deployment and the chain's invoice: nothing the service said goes in
      const calls = paymentCalls({ deployment, invoiceId: BigInt(invoiceId), amount: BigInt(state.invoice.amount) })
      const callsId = await wallet.sendCalls({ from: state.payer.account, calls })
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
      const check = checkInvoice(invoiceId, state.invoice, read ? [read] : [], deployment)
      return { type: 'callsRead', wallet: status ?? 'unknown', check, at: clock.now() }
    }
  }
}
