import { createPublicClient, http } from 'viem'
import { devnetRoles } from '../../devnet/deploy'
import type { Deployment } from '../../shared/deployment'
import { startRpcBundlerServer } from './rpcBundlerServer'

/** startRpcBundlerProcess's child: the bundler, and its switches answered over IPC. */
const { rpcUrl, deployment } = JSON.parse(process.env.SVC_BUNDLER_DEVNET!) as { rpcUrl: string; deployment: Deployment }
const bundler = await startRpcBundlerServer({
  client: createPublicClient({ transport: http(rpcUrl) }),
  deployment,
  rpcUrl,
  executor: devnetRoles.bundler,
  paymasterSigner: devnetRoles.paymasterSigner,
  mempool: true,
})
process.send!({ url: bundler.url })
process.on('message', async ({ id, call }: { id: number; call: string }) => {
  let result: unknown = null
  if (call === 'calls') result = bundler.calls
  else if (call === 'hold') bundler.hold()
  else if (call === 'forgetNextOperation') bundler.forgetNextOperation()
  else if (call === 'release') await bundler.release()
  else if (call === 'stop') await bundler.stop()
  process.send!({ id, result })
})
