import type { Address, Hex } from 'viem'
import { paysInOnePrompt, type WalletCapabilities } from '../../wallet/readWalletCapabilities'
import type { CheckInvoiceReturnType } from '../checkInvoice'
import type { PaymentFlowDependencies } from '../paymentFlowDependencies'
import type { SmartWalletOutcome } from './smartWalletEvent'
import type { SmartPayer } from './smartWalletState'

/** A wallet that does not answer wallet_getCapabilities in this long is taken to have none. */
export const capabilitiesTimeoutMs = 5_000

/** Contract code at the account: a smart account, which cannot sign for a vault (the vault recovers an
 * ECDSA signature). An EIP-7702 delegation (0xef0100 + an address) is an account whose own key still
 * signs, and is not one. */
export function isContractAccount(code: Hex | null): boolean {
  return !!code && code !== '0x' && code !== '0x0' && !code.toLowerCase().startsWith('0xef0100')
}

/** The wallet's capabilities for the account; null for a wallet that cannot say, fails or hangs. */
async function capabilitiesOf(wallet: PaymentFlowDependencies['wallet'], owner: Address): Promise<WalletCapabilities | null> {
  if (!wallet.capabilities) return null
  let timer: ReturnType<typeof setTimeout> | undefined
  const asked = Promise.race([wallet.capabilities(owner), new Promise<null>((resolve) => (timer = setTimeout(resolve, capabilitiesTimeoutMs, null)))])
  const capabilities = await asked.catch(() => null)
  clearTimeout(timer)
  return capabilities
}

/**
 * At connect, after the invoice was held to the chain: the one-prompt payment when the wallet runs
 * atomic batches with a paymaster service for this account on the pinned chain and the account
 * itself holds the amount; null (the vault flow) otherwise, and for any wallet that cannot say. An
 * account with contract code (a smart account) is never sent to the vault flow, which it could never
 * sign for: it is the payer here whatever it holds, told to top up itself when short, and shown what
 * the vault derived from it already holds, which only it can take back.
 */
export async function resolveSmartPayer(owner: Address, check: CheckInvoiceReturnType, { wallet, chain }: PaymentFlowDependencies): Promise<SmartWalletOutcome | null> {
  if (check.kind !== 'confirmed' || check.invoice.status !== 'Issued') return null
  // a code that cannot be read is no answer: connecting fails, and the payer tries again
  const [code, capabilities] = await Promise.all([chain.codeOf(owner), capabilitiesOf(wallet, owner)])
  const contract = isContractAccount(code)
  const oneStep = !!capabilities && paysInOnePrompt(capabilities) && !!wallet.sendCalls
  if (!contract && !oneStep) return null
  const balance = await chain.balanceOf(owner)
  if (!contract) return balance < BigInt(check.invoice.amount) ? null : { type: 'smartPayerResolved', payer: { owner, balance }, check }
  const { vault, deployed } = await chain.vaultOf(owner)
  const held = await chain.balanceOf(vault)
  const payer: SmartPayer = {
    owner,
    balance,
    ...(oneStep ? {} : { cannotPay: true as const }),
    ...(held > 0n ? { stranded: { vault, deployed, balance: held } } : {}),
    // the way back is a batch the account sends itself, paying its fee: a host page's relayed wallet sends none
    ...(capabilities?.atomic && wallet.sendCalls && wallet.sendsTransactions() ? { movesBack: true as const } : {}),
  }
  return { type: 'smartPayerResolved', payer, check }
}
