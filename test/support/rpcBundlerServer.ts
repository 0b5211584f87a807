import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { startRestartableLoopbackServer } from './loopback'
import { createWalletClient, http, toHex, type Hex, type LocalAccount, type PublicClient } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { localBundler } from '../../server/chain/bundler'
import { devnetRoles } from '../../devnet/deploy'
import { chainFor } from '../../server/chain/chainClient'
import { estimateAccountGas } from '../../server/chain/localGasEstimator'
import { localVerifyingSponsor } from '../../server/chain/sponsor'
import { decodeCreateVault } from '../../shared/payCall'
import type { Deployment } from '../../shared/deployment'

type Mode = 'normal' | 'hold'

/**
 * A small ERC-4337 bundler and ERC-7677 paymaster over JSON-RPC on 127.0.0.1, built from the same
 * real parts the server uses locally (simulation, handleOps, VerifyingPaymaster signatures), so the
 * server's external paths are tested against real wire formats. It can be stopped and restarted,
 * in `hold` mode it accepts operations but includes them only when `release()` is called, and
 * `forgetNextOperation()` makes it accept the next operation and then drop it, as a bundler whose
 * mempool was lost would. With `mempool`, it answers eth_sendUserOperation as soon as the operation
 * is queued and includes it in the background, in order, as a bundler with a mempool does (one that
 * fails is dropped); without it, once its bundle is sent.
 */
export async function startRpcBundlerServer({
  client,
  deployment,
  rpcUrl,
  executor,
  paymasterSigner,
  mempool = false,
}: {
  client: PublicClient
  deployment: Deployment
  rpcUrl: string
  executor: LocalAccount
  paymasterSigner: LocalAccount
  mempool?: boolean
}) {
  const wallet = createWalletClient({ chain: chainFor(deployment.chainId, rpcUrl), transport: http(rpcUrl), account: executor })
  // as a third party's bundler may: one whose call reverts is included all the same, and charged
  const bundler = localBundler({ client, wallet, deployment, checkExecution: false })
  const sponsor = localVerifyingSponsor({ deployment, signer: paymasterSigner })
  const calls: Record<string, number> = {}
  const held: UserOperation<'0.7'>[] = []
  // what eth_getUserOperationByHash finds: the operations accepted and not forgotten
  const known = new Map<Hex, Record<string, string>>()
  let mode: Mode = 'normal'
  let forgetNext = false

  const toOp = (raw: Record<string, string>): UserOperation<'0.7'> => {
    const op: Record<string, unknown> = { ...raw }
    for (const key of ['nonce', 'callGasLimit', 'verificationGasLimit', 'preVerificationGas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit']) {
      if (raw[key] !== undefined) op[key] = BigInt(raw[key])
    }
    return op as UserOperation<'0.7'>
  }
  const hashOf = (op: UserOperation<'0.7'>) =>
    getUserOperationHash({ chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7', userOperation: op })
  const sponsorship = (s: Awaited<ReturnType<typeof sponsor.sign>>) => ({
    paymaster: s.paymaster,
    paymasterData: s.paymasterData,
    paymasterVerificationGasLimit: toHex(s.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: toHex(s.paymasterPostOpGasLimit),
  })

  async function handle(method: string, params: any[]): Promise<unknown> {
    calls[method] = (calls[method] ?? 0) + 1
    switch (method) {
      case 'eth_supportedEntryPoints':
        return [deployment.entryPoint]
      case 'eth_chainId':
        return toHex(deployment.chainId)
      case 'eth_estimateUserOperationGas': {
        const op = toOp(params[0])
        const owner = op.factoryData ? decodeCreateVault(op.factoryData).owner : ('0x' as Hex)
        const gas = await estimateAccountGas(client, deployment, op, { owner, deployed: !op.factory })
        return {
          callGasLimit: toHex(gas.callGasLimit),
          verificationGasLimit: toHex(gas.verificationGasLimit),
          preVerificationGas: toHex(gas.preVerificationGas),
          paymasterVerificationGasLimit: toHex(60_000n),
        }
      }
      case 'eth_sendUserOperation': {
        const op = toOp(params[0])
        const hash = hashOf(op)
        if (forgetNext) {
          forgetNext = false
          return hash
        }
        if (mode === 'hold') held.push(op)
        else if (mempool) void bundler.send(op).catch(() => known.delete(hash))
        else await bundler.send(op)
        known.set(hash, params[0])
        return hash
      }
      case 'eth_getUserOperationByHash': {
        const op = known.get(params[0])
        return op ? { userOperation: op, entryPoint: deployment.entryPoint, transactionHash: null, blockHash: null, blockNumber: null } : null
      }
      case 'eth_getUserOperationReceipt': {
        const receipt = await bundler.receipt(params[0])
        return receipt ? { userOpHash: params[0], success: receipt.success, receipt: { transactionHash: receipt.txHash }, logs: [] } : null
      }
      case 'pm_getPaymasterStubData':
        return { ...sponsorship(await sponsor.stub(toOp(params[0]), params[3])), isFinal: false }
      case 'pm_getPaymasterData':
        return sponsorship(await sponsor.sign(toOp(params[0]), params[3]))
      default:
        throw Object.assign(new Error(`method ${method} not supported`), { code: -32601 })
    }
  }

  async function onRequest(request: IncomingMessage, response: ServerResponse) {
    let body = ''
    for await (const chunk of request) body += chunk
    const { id, method, params } = JSON.parse(body)
    let reply: object
    try {
      reply = { jsonrpc: '2.0', id, result: await handle(method, params) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -32500
      reply = { jsonrpc: '2.0', id, error: { code, message: (error as Error).message } }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply))
  }

  const server = await startRestartableLoopbackServer(() => createServer((req, res) => void onRequest(req, res)))

  return {
    get url() {
      return server.url
    },
    calls,
    hold() {
      mode = 'hold'
    },
    /** The next eth_sendUserOperation is answered with its hash and then neither sent nor remembered. */
    forgetNextOperation() {
      forgetNext = true
    },
    async release() {
      mode = 'normal'
      for (const op of held.splice(0)) await bundler.send(op)
    },
    stop: server.stop,
    /** Comes back on the same port, as a restarted bundler would. */
    start: server.start,
  }
}

/** The same on a test devnet, executing and sponsoring with the devnet's bundler and paymaster keys. */
export function startDevnetRpcBundlerServer(
  devnet: { clients: { public: PublicClient }; deployment: Deployment; anvil: { rpcUrl: string } },
  { mempool = false }: { mempool?: boolean } = {},
) {
  return startRpcBundlerServer({
    client: devnet.clients.public,
    deployment: devnet.deployment,
    rpcUrl: devnet.anvil.rpcUrl,
    executor: devnetRoles.bundler,
    paymasterSigner: devnetRoles.paymasterSigner,
    mempool,
  })
}
