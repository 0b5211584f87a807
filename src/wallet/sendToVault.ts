import type { Address, Hex } from 'viem'
import { encodeStaticCall } from '../../shared/staticAbiCall'
import { CodedError } from '../../shared/codedError'
import type { Eip1193Provider } from '../../shared/eip1193'
import { tokenTransferAbi } from '../../shared/tokenAbi'

export class VaultTransferFailedError extends CodedError {
  override readonly name = 'VaultTransferFailedError'
  readonly code = 'VAULT_TRANSFER_FAILED'
}

const receiptPollMs = 1_000
/** A transfer not mined in two minutes was dropped or replaced (a wallet's "speed up"): the page
 * stops waiting and reads the vault's balance from the chain, which says what arrived. */
const receiptPolls = 120

/**
 * The plain way to fund the vault: the wallet sends `amount` of the token from the account to the
 * vault as its own transaction (the payer pays its network fee), and the receipt is awaited through
 * the same wallet. Resolves with the transaction hash once mined; a reverted transfer throws.
 */
export async function sendToVault(
  provider: Eip1193Provider,
  owner: Address,
  { token, vault, amount }: { token: Address; vault: Address; amount: bigint },
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<Hex> {
  const data = encodeStaticCall(tokenTransferAbi[0], [vault, amount])
  const hash = (await provider.request({ method: 'eth_sendTransaction', params: [{ from: owner, to: token, data }] })) as Hex
  for (let poll = 0; poll < receiptPolls; poll++) {
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status?: Hex } | null
    if (receipt) {
      if (receipt.status === '0x1') return hash
      throw new VaultTransferFailedError(`the transfer to the vault reverted (${hash})`)
    }
    await sleep(receiptPollMs)
  }
  throw new VaultTransferFailedError(`the transfer to the vault (${hash}) was not mined within two minutes: check your wallet, then check again`)
}
