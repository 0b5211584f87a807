import type { Address } from 'viem'
import { paysInOnePrompt } from '../../wallet/readWalletCapabilities'
import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import type { SmartWalletOutcome } from './smartWalletEvent'

/** A wallet that does not answer wallet_getCapabilities in this long is taken to have none. */
export const capabilitiesTimeoutMs = 5_000

/**
 * At connect, after the invoice was held to the chain: the one-prompt payment when the wallet runs
 * atomic batches with a paymaster service for this account on the pinned chain and the account
 * itself holds the amount; null (the vault flow) otherwise, and for any wallet that cannot say.
 */
export async function resolveSmartPayer(owner: Address, check: CheckInvoiceReturnType, { wallet, chain }: PaymentFlowDependencies): Promise<SmartWalletOutcome | null> {
  if (!wallet.capabilities || !wallet.sendCalls || check.kind !== 'confirmed' || check.invoice.status !== 'Issued') return null
  // a wallet that fails or hangs on the question has no capabilities: the vault flow goes on
  let timer: ReturnType<typeof setTimeout> | undefined
  const capabilities = await Promise.race([wallet.capabilities(owner), new Promise<null>((resolve) => (timer = setTimeout(resolve, capabilitiesTimeoutMs, null)))]).catch(() => null)
  clearTimeout(timer)
  if (!capabilities || !paysInOnePrompt(capabilities)) return null
  const balance = await chain.balanceOf(owner)
  if (balance < BigInt(check.invoice.amount)) return null
  return { type: 'smartPayerResolved', payer: { owner, balance }, check }
}
