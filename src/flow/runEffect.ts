import type { Address } from 'viem'
import type { WireInvoice } from '../../shared/wire'
import type { ChainInvoice } from '../verify/confirmInvoice'
import { chainShownInvoice } from '../verify/chainShownInvoice'
import { ChainUnreadableError } from './failure'
import { checkInvoice } from './checkInvoice'
import type { PaymentOutcome, VaultOnChain } from './paymentEvent'
import type { PaymentFlowDependencies } from './paymentFlowDependencies'
import type { PaymentChain } from '../chain/createChainReader'
import type { PaymentState } from './paymentState'
import { resolveSmartPayer } from './smartWallet/resolveSmartPayer'
import { toWireUserOp } from '../../shared/userOpWire'
import { earliestDeadline } from '../../shared/permit'
import { paymentInvoice } from '../verify/paymentInvoice'
import { permitExpiring, sponsorshipExpiring } from './permitExpiring'
import { splitPermitSignature } from './splitPermitSignature'
import type { PaymentStepHelpers } from './runPaymentEffect'

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

const paymentStepHelpers: PaymentStepHelpers = { toWireUserOp, earliestDeadline, paymentInvoice, permitExpiring, sponsorshipExpiring, splitPermitSignature }

let paymentEffect: Promise<typeof import('./runPaymentEffect')> | null = null

/** The payment's steps, loaded once (again after a failed load). */
function loadPaymentEffect() {
  paymentEffect ??= import('./runPaymentEffect').catch((error: unknown) => {
    paymentEffect = null
    throw error
  })
  return paymentEffect
}

/** The work a state stands for, reported as one outcome; null for states that wait for the payer.
 * Throws whatever the dependency threw: the driver turns it into a `failed` outcome. */
export async function runEffect(state: PaymentState, dependencies: PaymentFlowDependencies): Promise<PaymentOutcome | null> {
  const { api, wallet, chain, clock, deployment, invoiceId } = dependencies
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
      // with the chain's clock (read with the vault's nonce) when a signed permit's lapse is in question
      return readChain(state.invoice, state.lapse?.payer.vault)

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

    case 'requestingPermit':
    case 'sendingToVault':
    case 'signingFunding':
    case 'signingPermit':
    case 'preparing':
    case 'verifying':
    case 'signingOperation':
    case 'submitting':
      // the payment's own steps, fetched when the payer connects (see 'connected' below): a payer who
      // only reads the invoice never loads them
      return (await loadPaymentEffect()).runPaymentEffect(state, dependencies, paymentStepHelpers)

    case 'sendingCalls':
    case 'followingCalls':
    case 'movingBack':
    case 'followingMoveBack':
      // fetched when the payer presses Pay: a payer with a vault never loads it
      return (await import('./smartWallet/runSmartWalletEffect')).runSmartWalletEffect(state, dependencies, checkInvoice)

    case 'connected':
    case 'insufficientBalance':
    case 'permitExpired':
      // the payer may press Pay next: its steps start loading now, so the press does not wait on them
      void loadPaymentEffect().catch(() => {})
      return null

    case 'idle':
    case 'smartWallet':
    case 'notFound':
    case 'paid':
    case 'canceled':
    case 'wrongNetwork':
    case 'unsafe':
    case 'error':
      return null
  }
}
