import { CodedError } from '../../shared/codedError'
import {
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  http,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,

  type Account,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Transport,
  type Chain,
} from 'viem'
import {
  createBundlerClient,
  entryPoint07Abi,
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import type { Deployment } from '../../shared/deployment'
import type { AccountGas } from './localGasEstimator'
import { boundedTransport, upstreamBusy, upstreamBusyError, upstreamCallsInFlight, upstreamQueueLimit } from './boundedTransport'
import { revertOf } from './chainErrors'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'

export type BundlerReceipt = { success: boolean; txHash: Hex }

/** Carries an operation to the EntryPoint and reports what became of it. */
export type Bundler = {
  /** Gas from the bundler itself, where it offers estimation (ERC-4337 eth_estimateUserOperationGas). */
  estimate?(userOp: UserOperation<'0.7'>): Promise<AccountGas & { paymasterVerificationGasLimit?: bigint }>
  /** Resolves once the operation is accepted for inclusion, with what finds it again (the local
   * executor's transaction hash), kept with the submission so a restart can use it too. */
  send(userOp: UserOperation<'0.7'>): Promise<string | undefined>
  receipt(userOpHash: Hex, reference?: string | null): Promise<BundlerReceipt | null>
  /** Whether the operation is still on its way (in the bundler's mempool, or its bundle in the
   * chain's): false for one the bundler dropped or never had. */
  knows(userOpHash: Hex, reference?: string | null): Promise<boolean>
  /** Resolves once the bundler answers (GET /readyz); quickly rejects when it does not. */
  ping(): Promise<void>
}

/** Long enough for a bundler across a network, short enough that /readyz answers promptly. */
const pingTimeoutMs = 2_000

/** The operation itself is invalid (simulation failed): sending it again will not help. */
export class BundlerRejectedError extends CodedError {
  override name = 'BundlerRejectedError'
  readonly code = 'USEROP_REJECTED'
}

/** The bundler or the chain could not be reached: the operation may be retried unchanged. */
export class BundlerUnavailableError extends CodedError {
  override name = 'BundlerUnavailableError'
  readonly code = 'BUNDLER_UNAVAILABLE'
}

/** Receipts from the EntryPoint's own log: they survive a restart and need no bundler memory. */
export async function receiptFromLogs(client: PublicClient, deployment: Deployment, userOpHash: Hex, fromBlock: bigint) {
  const [event] = await client.getContractEvents({
    address: deployment.entryPoint,
    abi: entryPoint07Abi,
    eventName: 'UserOperationEvent',
    args: { userOpHash },
    fromBlock,
    strict: true,
  })
  return event ? { success: event.args.success, txHash: event.transactionHash as Hex } : null
}

async function receiptFromTransaction(client: PublicClient, userOpHash: Hex, hash: Hex): Promise<BundlerReceipt | null> {
  let receipt
  try {
    receipt = await client.getTransactionReceipt({ hash })
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null
    throw error
  }
  const event = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).find(
    (log) => log.args.userOpHash === userOpHash,
  )
  // a bundle that reverted as a whole included nothing: the operation can be sent again
  return event ? { success: event.args.success, txHash: hash } : null
}

/** The vault's, the registry's or the token's error by name (InvoiceDiffers(7)), else its bytes. */
function executionRevertReason(data: Hex): string {
  try {
    const { errorName, args = [] } = decodeErrorResult({ abi: [...payerVaultAbi, ...invoiceRegistryAbi, ...stablecoinAbi], data })
    return `${errorName}(${args.map(String).join(', ')})`
  } catch {
    return data === '0x' ? 'reverted without a reason' : data.slice(0, 74)
  }
}

function failedOpReason(error: unknown): string | undefined {
  const reverted = revertOf(error)?.data
  if (!reverted) return undefined
  const { errorName, args = [] } = reverted
  if (errorName === 'FailedOp' || errorName === 'FailedOpWithRevert') return String(args[1])
  return undefined
}

/**
 * Self-bundling: an executor key simulates handleOps and then sends it. Sends run one at a time so
 * the executor's nonces never collide; the chain's own nonce for the vault means a repeated operation
 * can never be included twice. At most `queueLimit` sends wait their turn; the next is refused at
 * once (UPSTREAM_BUSY), as in front of a bundler service.
 */
export function localBundler({
  client,
  wallet,
  deployment,
  fromBlock = 0n,
  queueLimit = upstreamQueueLimit,
  checkExecution = true,
}: {
  client: PublicClient
  wallet: WalletClient<Transport, Chain, Account>
  deployment: Deployment
  fromBlock?: bigint
  queueLimit?: number
  /** false: sends an operation whose call would revert, as a bundler that checks only validation
   * does (what a stand-in for a third party's bundler needs; never the server's own executor). */
  checkExecution?: boolean
}): Bundler {
  let queue: Promise<unknown> = Promise.resolve()
  let queued = 0
  const beneficiary = wallet.account.address
  /** Bundles sent and not yet seen in a block: the next operation is simulated after them. */
  let unmined: { hash: Hex; data: Hex; userOpHash: Hex }[] = []

  /** Still waiting in the node's pool: neither mined nor dropped. */
  async function waiting(hash: Hex): Promise<boolean> {
    if (await client.getTransactionReceipt({ hash }).then(() => true, () => false)) return false
    return client.getTransaction({ hash }).then(() => true, () => false)
  }

  /**
   * Runs the operation's execution as handleOps would (eth_simulateV1), after every other bundle still
   * on its way, and refuses it when its call would revert: a reverted call is still charged, and the
   * paymaster pays. Validation alone (estimateGas) passes an operation whose invoice another payer
   * has just paid.
   */
  async function assertExecutes(userOpHash: Hex, data: Hex) {
    // a resend of this very operation (its bundle dropped) is simulated on its own
    const others = unmined.filter((bundle) => bundle.userOpHash !== userOpHash)
    const stillWaiting = await Promise.all(others.map(async (bundle) => ((await waiting(bundle.hash)) ? [bundle] : [])))
    unmined = [...stillWaiting.flat(), ...unmined.filter((bundle) => bundle.userOpHash === userOpHash)]
    const ahead = stillWaiting.flat()
    const call = (calldata: Hex) => ({ account: beneficiary, to: deployment.entryPoint, data: calldata })
    let results
    try {
      ;[results] = await client.simulateBlocks({ blocks: [{ calls: [...ahead.map((bundle) => call(bundle.data)), call(data)] }] })
    } catch (error) {
      throw new BundlerUnavailableError('the chain did not simulate the operation (the executor needs eth_simulateV1)', { cause: error })
    }
    const result = results?.calls.at(-1)
    if (!result) throw new BundlerUnavailableError('the chain did not simulate the operation')
    if (result.status !== 'success') {
      throw new BundlerRejectedError(`the EntryPoint refused the operation: ${failedOpReason(result.error) ?? 'handleOps reverted'}`, { cause: result.error })
    }
    const events = parseEventLogs({ abi: entryPoint07Abi, logs: result.logs ?? [], eventName: ['UserOperationEvent', 'UserOperationRevertReason'] }).filter(
      (log) => log.args.userOpHash === userOpHash,
    )
    const outcome = events.find((log) => log.eventName === 'UserOperationEvent')
    if (outcome?.eventName === 'UserOperationEvent' && outcome.args.success) return
    const revert = events.find((log) => log.eventName === 'UserOperationRevertReason')
    const reason = revert?.eventName === 'UserOperationRevertReason' ? executionRevertReason(revert.args.revertReason) : 'no result'
    throw new BundlerRejectedError(`the operation would revert in execution, so it was not sent: ${reason}`)
  }

  async function sendNow(userOp: UserOperation<'0.7'>) {
    const request = {
      address: deployment.entryPoint,
      abi: entryPoint07Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(userOp)], beneficiary],
      account: wallet.account,
    } as const
    let gas: bigint
    try {
      gas = await client.estimateContractGas(request)
    } catch (error) {
      const reason = failedOpReason(error)
      if (reason) throw new BundlerRejectedError(`the EntryPoint refused the operation: ${reason}`, { cause: error })
      throw new BundlerUnavailableError('the chain did not simulate the operation', { cause: error })
    }
    const data = encodeFunctionData(request)
    const userOpHash = getUserOperationHash({ chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: userOp })
    if (checkExecution) await assertExecutes(userOpHash, data)
    let hash: Hex
    try {
      hash = await wallet.writeContract({ ...request, gas: (gas * 12n) / 10n })
    } catch (error) {
      throw new BundlerUnavailableError('the chain did not accept the bundle', { cause: error })
    }
    unmined = [...unmined.filter((bundle) => bundle.userOpHash !== userOpHash), { hash, data, userOpHash }]
    return hash
  }

  return {
    send(userOp) {
      // the one being sent counts too: `queued` waiting behind it
      if (queued > queueLimit) return Promise.reject(upstreamBusyError('the executor', queued - 1))
      queued++
      const sent = queue.then(() => sendNow(userOp)).finally(() => queued--)
      queue = sent.catch(() => undefined)
      return sent
    },
    async receipt(userOpHash, reference) {
      try {
        // by the bundle's own transaction when we sent it: no log scan over a range an RPC may refuse
        if (reference) return await receiptFromTransaction(client, userOpHash, reference as Hex)
        return await receiptFromLogs(client, deployment, userOpHash, fromBlock)
      } catch (error) {
        throw new BundlerUnavailableError('the chain did not answer', { cause: error })
      }
    },
    async knows(_userOpHash, reference) {
      if (!reference) return false
      try {
        await client.getTransaction({ hash: reference as Hex })
        return true
      } catch (error) {
        if (error instanceof TransactionNotFoundError) return false
        throw new BundlerUnavailableError('the chain did not answer', { cause: error })
      }
    },
    // nothing to reach but the chain, which /readyz checks on its own
    async ping() {},
  }
}

/** Any ERC-4337 bundler over JSON-RPC. */
export function rpcBundler({ url, deployment, queueLimit = upstreamQueueLimit }: { url: string; deployment: Deployment; queueLimit?: number }): Bundler {
  const bundler = createBundlerClient({
    transport: boundedTransport(http(url, { retryCount: 0, timeout: 15_000 }), { limit: upstreamCallsInFlight, queueLimit, service: 'the bundler' }),
  })
  const probe = createBundlerClient({ transport: http(url, { retryCount: 0, timeout: pingTimeoutMs }) })
  const entryPoint = deployment.entryPoint

  function classify(error: unknown, what: string): Error {
    const busy = upstreamBusy(error)
    if (busy) return busy
    if (error instanceof BaseError && 'code' in error && typeof error.code === 'number' && error.code <= -32500 && error.code >= -32599) {
      // the bundler's reason (an AA code) is in details; shortMessage only says the request failed
      return new BundlerRejectedError(`the bundler refused the operation: ${error.details || error.shortMessage}`.slice(0, 300), { cause: error })
    }
    return new BundlerUnavailableError(`the bundler did not ${what}`, { cause: error })
  }

  return {
    async estimate(userOp) {
      try {
        const gas = await bundler.request({
          method: 'eth_estimateUserOperationGas',
          params: [formatUserOperationRequest(userOp), entryPoint],
        })
        return {
          callGasLimit: BigInt(gas.callGasLimit),
          verificationGasLimit: BigInt(gas.verificationGasLimit),
          preVerificationGas: BigInt(gas.preVerificationGas),
          ...(gas.paymasterVerificationGasLimit ? { paymasterVerificationGasLimit: BigInt(gas.paymasterVerificationGasLimit) } : {}),
        }
      } catch (error) {
        throw classify(error, 'estimate gas')
      }
    },
    async send(userOp) {
      try {
        return await bundler.request({ method: 'eth_sendUserOperation', params: [formatUserOperationRequest(userOp), entryPoint] })
      } catch (error) {
        throw classify(error, 'accept the operation')
      }
    },
    async receipt(userOpHash) {
      try {
        const receipt = await bundler.request({ method: 'eth_getUserOperationReceipt', params: [userOpHash] })
        if (!receipt) return null
        const txHash = receipt.receipt.transactionHash as Hex
        return { success: receipt.success, txHash }
      } catch (error) {
        throw upstreamBusy(error) ?? new BundlerUnavailableError('the bundler did not answer', { cause: error })
      }
    },
    async knows(userOpHash) {
      try {
        return (await bundler.request({ method: 'eth_getUserOperationByHash', params: [userOpHash] })) !== null
      } catch (error) {
        throw upstreamBusy(error) ?? new BundlerUnavailableError('the bundler did not answer', { cause: error })
      }
    },
    async ping() {
      await probe.request({ method: 'eth_supportedEntryPoints' })
    },
  }
}

