import type { Address, Hex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { OnchainInvoice } from '../chain/readInvoice'
import type { PaymentMessage } from '../../shared/paymentMessage'
import type { PermitTypedData } from '../verify/verifyPermitToSign'
import type { PaymentCall } from './sendPaymentCalls'
import type { CallsStatus } from './readCallsStatus'
import type { WalletCapabilities } from './readWalletCapabilities'

/** The owner's wallet (EIP-1193 underneath): a refusal by the payer throws an error with code 4001. */
export type PaymentWallet = {
  connect(): Promise<Address>
  chainId(): Promise<number>
  switchChain(chainId: number): Promise<void>
  signTypedData(typedData: PermitTypedData): Promise<Hex>
  /** The vault checks the owner's signature of the operation's Payment message (eth_signTypedData_v4,
   * which the wallet shows field by field), built from the verified operation. A wallet reached
   * through the bridge is sent only the operation: the host verifies it again and builds the message
   * itself before its wallet signs. */
  signUserOperation(operation: { userOp: UserOperation<'0.7'>; userOpHash: Hex; payment: PaymentMessage }): Promise<Hex>
  /** The plain way to fund the vault: the wallet's own token transfer from the account to the vault,
   * whose network fee the payer pays. Resolves with its hash once it is mined; throws if it reverted. */
  /** Whether `sendToVault` can work with this wallet: a host page's wallet and the devnet wallet send no transactions. */
  sendsTransactions(): boolean
  sendToVault(transfer: { token: Address; vault: Address; amount: bigint }): Promise<Hex>
  /** The pinned registry's invoice read through the wallet's own node: a second view of the chain. */
  invoiceOf(id: bigint): Promise<OnchainInvoice | null>
  /** EIP-5792, for a wallet that is itself a smart account: what it can do for `account` on the pinned
   * chain, the payment's calls as one sponsored batch (resolves with the batch id, empty when the wallet named none), and the wallet's
   * word on that batch. Absent where the page has no way to ask (tests' fakes). */
  capabilities?(account: Address): Promise<WalletCapabilities>
  /** `sponsored: false`: without the checkout's paymaster service, the account paying its own fee. */
  sendCalls?(batch: { from: Address; calls: PaymentCall[]; sponsored?: false }): Promise<string>
  callsStatus?(id: string): Promise<CallsStatus>
}
