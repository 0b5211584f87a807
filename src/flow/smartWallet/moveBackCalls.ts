import type { Address } from 'viem'
import type { PinnedDeployment } from '../../../shared/pinnedDeployment'
import type { PaymentCall } from '../../wallet/sendPaymentCalls'
import type { StrandedVault } from './smartWalletState'

/** One static ABI word (as paymentCalls.ts writes them: viem's encoder would load with this chunk). */
const word = (value: bigint | string) => BigInt(value).toString(16).padStart(64, '0')
/** SimpleAccount.execute(address,uint256,bytes) */
const executeSelector = '0xb61d27f6'
/** transfer(address,uint256) */
const transferSelector = 'a9059cbb'
/** PayerVaultFactory.createAccount(address,uint256) */
const createAccountSelector = '0x5fbfb9cf'

export type MoveBackCallsParameters = { deployment: PinnedDeployment; account: Address; stranded: StrandedVault }

/**
 * What takes a stranded vault's token back to the smart account that owns it, sent by that account
 * itself: the vault accepts execute from its owner (contracts/PayerVault.sol, SimpleAccount's
 * execute), and its owner is this account. A vault not yet deployed is deployed first by the pinned
 * factory (anyone may; it deploys the same vault for the same owner). Built from the pinned deployment
 * and the chain's reads alone: the token, the vault and the whole balance it held when read.
 */
export function moveBackCalls({ deployment, account, stranded }: MoveBackCallsParameters): PaymentCall[] {
  // transfer(account, balance): 68 bytes, carried as execute's bytes argument (its offset three words
  // in, its length, then the call padded to whole words)
  const transfer = `${transferSelector}${word(account)}${word(stranded.balance)}`
  const execute = `${executeSelector}${word(deployment.token)}${word(0n)}${word(0x60n)}${word(BigInt(transfer.length / 2))}${transfer.padEnd(192, '0')}` as const
  // salt 0: every payer's vault (vaultSalt, shared/vaultFactoryAbi.ts)
  const deploy: PaymentCall = { to: deployment.vaultFactory, data: `${createAccountSelector}${word(account)}${word(0n)}`, value: '0x0' }
  return [...(stranded.deployed ? [] : [deploy]), { to: stranded.vault, data: execute, value: '0x0' }]
}
