import { encodeFunctionData, parseAbi, parseEventLogs, zeroHash, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts'
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction'
import { devnetClients, mined } from '../devnet/deploy'
import { issueInvoice, mintTo } from '../devnet/seed'
import type { ReachableDevnet } from '../devnet/startDevnet'
import { accountOf, deployFactory, hex, signedSponsoredOp, simpleAccountFactoryV07, sponsoredAtCeilings } from '../test/support/paymasterAccounts'

const erc20 = parseAbi(['function approve(address spender, uint256 value) returns (bool)'])
const payAbi = parseAbi(['function pay(uint256 id, uint256 deadline, uint8 v, bytes32 r, bytes32 s)'])
const batchAbi = parseAbi(['function executeBatch(address[] dest, uint256[] value, bytes[] func)'])

/** One self-bundled sponsorship: what the EntryPoint charged the paymaster, and what the bundler's own
 * transaction cost it, in gas and in wei. */
export type SelfBundled = { chargedGas: bigint; bundleGas: bigint; charged: bigint; bundleCost: bigint; refused?: string }

/**
 * The attack the paymaster service's gas ceilings bound, run as an attacker would: one smart account
 * (eth-infinitism's SimpleAccount 0.7.0) pays `count` 1-unit invoices of a registered merchant, each
 * operation asked at every gas ceiling the service allows and the highest tip it allows, then sent by
 * the attacker's own EOA straight to the EntryPoint with no tip of its own, the attacker the
 * beneficiary: everything the paymaster is charged beyond the bundle's cost is the attacker's.
 */
export async function selfBundledSponsorships(devnet: ReachableDevnet, { serviceUrl, count, attacker }: { serviceUrl: string; count: number; attacker: LocalAccount }) {
  const { deployment } = devnet
  const rpcUrl = devnet.anvil.rpcUrl
  const clients = devnetClients(rpcUrl, deployment.chainId)
  const own = devnetClients(rpcUrl, deployment.chainId, attacker)
  const factory = await deployFactory(clients, simpleAccountFactoryV07, deployment.entryPoint)
  const owner = privateKeyToAccount(generatePrivateKey())
  const account = await accountOf(clients, factory, owner)
  await mintTo(clients, deployment, account.sender, BigInt(count))
  const outcomes: SelfBundled[] = []
  for (let i = 0; i < count; i++) {
    const { timestamp, baseFeePerGas } = await clients.public.getBlock()
    const invoice = await issueInvoice(rpcUrl, deployment, devnet.seed.merchant, { amount: 1n, dueAt: timestamp + 86_400n, metaHash: `0x${'ab'.repeat(32)}` })
    const nonce = await clients.public.readContract({ address: deployment.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [account.sender, 0n] })
    const deployed = ((await clients.public.getCode({ address: account.sender })) ?? '0x') !== '0x'
    const tip = 2n * (await clients.public.estimateMaxPriorityFeePerGas())
    const calls: { to: Address; data: `0x${string}` }[] = [
      { to: deployment.token, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [deployment.registry, 1n] }) },
      { to: deployment.registry, data: encodeFunctionData({ abi: payAbi, functionName: 'pay', args: [invoice.id, 0n, 0, zeroHash, zeroHash] }) },
    ]
    const asked = {
      sender: account.sender,
      nonce,
      ...(deployed ? {} : { factory: account.factory, factoryData: account.factoryData }),
      callData: encodeFunctionData({ abi: batchAbi, functionName: 'executeBatch', args: [calls.map((c) => c.to), calls.map(() => 0n), calls.map((c) => c.data)] }),
      callGasLimit: 900_000n,
      verificationGasLimit: 1_500_000n,
      preVerificationGas: 400_000n,
      maxFeePerGas: 2n * (baseFeePerGas ?? 0n) + tip,
      maxPriorityFeePerGas: tip,
    }
    const paymasterFields = { paymasterVerificationGasLimit: hex(60_000n), paymasterPostOpGasLimit: '0x0' }
    const { op, answer } = await sponsoredAtCeilings(asked, { serviceUrl, entryPoint: deployment.entryPoint, chainId: deployment.chainId, client: '198.51.100.200', fields: paymasterFields })
    if (!answer.body.result) {
      outcomes.push({ chargedGas: 0n, bundleGas: 0n, charged: 0n, bundleCost: 0n, refused: answer.body.error?.data?.code ?? 'refused' })
      continue
    }
    const { userOp } = await signedSponsoredOp(op, answer.body.result, owner, { chainId: deployment.chainId, entryPoint: deployment.entryPoint })
    const receipt = await mined(
      own.public,
      await own.wallet.writeContract({
        address: deployment.entryPoint,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [[toPackedUserOperation(userOp)], attacker.address],
        maxPriorityFeePerGas: 0n,
        chain: null,
      }),
    )
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs })
    if (!event?.args.success) throw new Error('a self-bundled payment did not go through: the ceilings are too low for the operation they measured')
    outcomes.push({ chargedGas: event.args.actualGasUsed, bundleGas: receipt.gasUsed, charged: event.args.actualGasCost, bundleCost: receipt.gasUsed * receipt.effectiveGasPrice })
  }
  return outcomes
}
