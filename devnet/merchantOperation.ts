import { parseEventLogs, type Address, type Hex, type TransactionReceipt } from 'viem'
import { privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { entryPoint07Abi, getUserOperationHash, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { Deployment } from '../shared/deployment'
import { encodeMerchantVaultCall, type MerchantVaultCall } from '../shared/merchantVaultCall'
import { merchantVaultTypedData, ownerOperationSignature } from '../shared/merchantVaultMessage'
import { devnetClients, mined, type DevnetClients } from './deploy'
import { DevnetError } from './devnetError'

/** Who signs a merchant vault's operation: its owner (a typed message) or its session signer. */
export type MerchantOperationSigner = { kind: 'owner'; privateKey: Hex } | { kind: 'session'; privateKey: Hex }

export type SendMerchantOperationParameters = {
  vault: Address
  call: MerchantVaultCall
  signer: MerchantOperationSigner
  /** The account that sends handleOps and is paid for it (a devnet's own key with ether). */
  bundler: LocalAccount
  /** The owner's signature's last second; default an hour from the chain's time. */
  validUntil?: bigint
}

export type MerchantOperationOutcome = { receipt: TransactionReceipt; userOpHash: Hex; success: boolean }

/** The session module's operations carry its address as their nonce key (ERC-7579, as OpenZeppelin's
 * AccountERC7579 reads it: the key's first 20 bytes). */
export const sessionNonceKey = (sessionValidator: Address): bigint => BigInt(sessionValidator) << 32n

/**
 * Sends one of a merchant vault's operations through the EntryPoint as its own bundler would on the
 * devnet: no paymaster (the vault pays from its EntryPoint deposit), gas limits wide enough for any
 * of them. The owner signs the operation's typed message, as its wallet would show it; a session
 * signer signs the operation's hash. Reverts (validation refused) surface as the transaction's error.
 */
export async function sendMerchantOperation(rpcUrl: string, deployment: Deployment, parameters: SendMerchantOperationParameters): Promise<MerchantOperationOutcome> {
  const { vault, call, signer, bundler } = parameters
  const { public: client } = devnetClients(rpcUrl, deployment.chainId, bundler)
  if (signer.kind === 'session' && !deployment.sessionValidator) throw new DevnetError('DEVNET_SEED_FAILED', 'this deployment has no session validator')
  const key = signer.kind === 'session' ? sessionNonceKey(deployment.sessionValidator!) : 0n
  const [{ userOp, userOpHash }, block] = await Promise.all([unsignedMerchantOperation(client, deployment, { vault, callData: encodeMerchantVaultCall(call), key }), client.getBlock()])
  const key65 = privateKeyToAccount(signer.privateKey)
  if (signer.kind === 'owner') {
    const validUntil = parameters.validUntil ?? block.timestamp + 3_600n
    const typedData = merchantVaultTypedData({ chainId: deployment.chainId, vault, call, validUntil, operation: userOpHash })
    userOp.signature = ownerOperationSignature(validUntil, await key65.signTypedData(typedData as never))
  } else {
    userOp.signature = await key65.signMessage({ message: { raw: userOpHash } })
  }
  const receipt = await handleOwnOperation(rpcUrl, deployment, bundler, userOp)
  const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
  return { receipt, userOpHash, success: event?.args.success === true }
}

/** A merchant vault's operation with `callData` under nonce key `key`, unsigned, with its hash: gas
 * limits wide enough for any of the vault's operations, no paymaster (the vault's deposit pays). */
export async function unsignedMerchantOperation(client: DevnetClients['public'], deployment: Deployment, { vault, callData, key }: { vault: Address; callData: Hex; key: bigint }) {
  const [nonce, fees] = await Promise.all([
    client.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [vault, key] }),
    client.estimateFeesPerGas(),
  ])
  const userOp: UserOperation<'0.7'> = {
    sender: vault,
    nonce,
    callData,
    callGasLimit: 600_000n,
    verificationGasLimit: 600_000n,
    preVerificationGas: 100_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  return { userOp, userOpHash }
}

/** handleOps with one signed operation, sent and paid for by `bundler`; a refused validation throws. */
export async function handleOwnOperation(rpcUrl: string, deployment: Deployment, bundler: LocalAccount, userOp: UserOperation<'0.7'>) {
  const { public: client, wallet } = devnetClients(rpcUrl, deployment.chainId, bundler)
  return mined(
    client,
    await wallet.writeContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'handleOps', args: [[toPackedUserOperation(userOp)], bundler.address], chain: null }),
  )
}
