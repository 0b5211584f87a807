import { formatUnits } from 'viem'
import * as z from 'zod/mini'
import { devnetDir, writeDevnetFile, type DevnetFile } from './devnet/devnetFile'
import { startDevnet } from './devnet/startDevnet'

const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535))
const env = z
  .object({
    PORT: z._default(port, 8787),
    DEVNET_RPC_PORT: z._default(port, 8545),
  })
  .parse(process.env)

const started = performance.now()
const devnet = await startDevnet({ port: env.DEVNET_RPC_PORT })
const serverUrl = `http://127.0.0.1:${env.PORT}`
const { anvil, deployment, seed } = devnet

const file: DevnetFile = {
  chainId: deployment.chainId,
  rpcUrl: anvil.rpcUrl,
  serverUrl,
  contracts: {
    entryPoint: deployment.entryPoint,
    token: deployment.token,
    registry: deployment.registry,
    vaultFactory: deployment.vaultFactory,
    paymaster: deployment.paymaster,
  },
  merchant: seed.merchant,
  payer: seed.payer,
  invoices: seed.invoices.map((invoice) => ({
    id: invoice.id.toString(),
    amount: invoice.amount.toString(),
    invoiceNumber: invoice.metadata.invoiceNumber,
    dueAt: invoice.dueAt.toString(),
  })),
  startedAt: new Date().toISOString(),
}
const path = writeDevnetFile(devnetDir(), file)
const readyMs = Math.round(performance.now() - started)

const usdc = (amount: bigint) => `${formatUnits(amount, 6)} USDC`
console.log(
  [
    `svc-checkout devnet ready in ${readyMs} ms`,
    `  chain     ${deployment.chainId} at ${anvil.rpcUrl}`,
    `  server    ${serverUrl}`,
    `  EntryPoint ${deployment.entryPoint}  registry ${deployment.registry}  token ${deployment.token}`,
    `  merchant  vault ${seed.merchant.vault}`,
    `  payer     vault ${seed.payer.vault} (not deployed yet), owner ${seed.payer.owner}`,
    '  invoices',
    ...seed.invoices.map((invoice) => `    #${invoice.id}  ${invoice.metadata.invoiceNumber}  ${usdc(invoice.amount).padStart(16)}  ${invoice.metadata.description}`),
    `  details   ${path}`,
    'Ctrl-C stops everything.',
  ].join('\n'),
)

let stopping = false
async function stop(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`\n${signal}: stopping`)
  await anvil.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop('SIGINT'))
process.on('SIGTERM', () => void stop('SIGTERM'))
