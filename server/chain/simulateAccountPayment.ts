import { getContractAddress, isAddressEqual, parseAbi, type Address, type Hex, type PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'

const allowanceAbi = parseAbi(['function allowance(address owner, address spender) view returns (uint256)'])

export type SimulateAccountPaymentParameters = {
  entryPoint: Address
  registry: Address
  token: Address
  invoiceId: bigint
  sender: Address
  callData: Hex
  /** The account's deployment, for an account that does not exist yet (v0.7 factory/factoryData; v0.6 initCode split). */
  factory?: { address: Address; data: Hex } | undefined
}

/** What running the operation's execution did: paid the invoice from the sender, leaving no allowance
 * behind, or why not. `unavailable`: the node could not simulate. */
export type AccountPaymentSimulation = { paid: true } | { paid: false; reason: string } | { paid: false; unavailable: true; reason: string }

/**
 * Runs the account's own code as the EntryPoint would run it (eth_simulateV1, one block: the factory
 * called by the EntryPoint's SenderCreator where the account is not deployed yet, then the callData
 * from the EntryPoint) and reads the registry and the token after it. The callData's calls decoded to
 * a payment; this says whether this account, whatever its code, makes that payment when it runs them.
 * Validation (the signatures) is not run: nothing is signed yet.
 */
export async function simulateAccountPayment(client: PublicClient, parameters: SimulateAccountPaymentParameters): Promise<AccountPaymentSimulation> {
  const { entryPoint, registry, token, invoiceId, sender, callData, factory } = parameters
  const deployed = ((await client.getCode({ address: sender })) ?? '0x') !== '0x'
  // EntryPoint v0.6 and v0.7 create their SenderCreator in their constructor, at their first nonce
  const senderCreator = getContractAddress({ from: entryPoint, nonce: 1n })
  const creation = !deployed && factory ? [{ account: senderCreator, to: factory.address, data: factory.data }] : []
  let calls
  try {
    const [block] = await client.simulateBlocks({
      blocks: [
        {
          calls: [
            ...creation,
            { account: entryPoint, to: sender, data: callData },
            { to: registry, abi: invoiceRegistryAbi, functionName: 'invoices', args: [invoiceId] },
            { to: token, abi: allowanceAbi, functionName: 'allowance', args: [sender, registry] },
          ],
        },
      ],
    })
    calls = block?.calls
  } catch (cause) {
    return { paid: false, unavailable: true, reason: `the chain did not simulate the operation (eth_simulateV1): ${(cause as Error).message.split('\n')[0]}` }
  }
  if (!calls) return { paid: false, unavailable: true, reason: 'the chain did not simulate the operation' }
  const [execution, invoice, allowance] = calls.slice(creation.length) as [
    (typeof calls)[number],
    { status: string; result: { status: number; payer: Address } },
    { status: string; result: bigint },
  ]
  if (creation.length > 0 && calls[0]!.status !== 'success') return { paid: false, reason: 'the account factory reverts' }
  if (execution.status !== 'success') return { paid: false, reason: 'the account reverts when it runs the calls' }
  if (invoice.status !== 'success' || invoice.result.status !== 2 || !isAddressEqual(invoice.result.payer, sender)) {
    return { paid: false, reason: 'the account runs the calls without the invoice being paid by it' }
  }
  if (allowance.status !== 'success' || allowance.result !== 0n) return { paid: false, reason: 'the account leaves an allowance to the registry behind' }
  return { paid: true }
}
