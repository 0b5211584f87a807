import { getContractAddress, isAddressEqual, parseAbi, type Address, type Hex, type PublicClient } from 'viem'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { intrinsicGasOf } from './intrinsicGas'

const allowanceAbi = parseAbi(['function allowance(address owner, address spender) view returns (uint256)'])

export type SimulateAccountPaymentParameters = {
  entryPoint: Address
  registry: Address
  token: Address
  invoiceId: bigint
  sender: Address
  callData: Hex
  /** The account's `validateUserOp(op, hash, 0)` as the EntryPoint of its version calls it, with the
   * wallet's placeholder signature: it runs before the calls, as the EntryPoint runs it. */
  validation: Hex
  /** The account's deployment, for an account that does not exist yet (v0.7 factory/factoryData; v0.6 initCode split). */
  factory?: { address: Address; data: Hex } | undefined
}

/** The most gas each phase can need inside the EntryPoint's own transaction, from the simulation: a
 * simulated transaction reports its gas after refunds (EIP-3529: at most a fifth of what it consumed),
 * and a phase needs its gas before them, so each is taken as 5/4 of what its transaction used, less
 * what that transaction cost by itself (21,000 and its calldata). Never less than the phase needs; at
 * most a quarter more where it earned no refund. */
export type MeasuredAccountGas = { deployment: bigint; validation: bigint; execution: bigint }

/** What running the operation did: paid the invoice from the sender, leaving no allowance behind, with
 * the gas each phase used; or why not. `unavailable`: the node could not simulate. */
export type AccountPaymentSimulation =
  | { paid: true; gas: MeasuredAccountGas }
  | { paid: false; refusal: 'EXECUTION_DOES_NOT_PAY' | 'VALIDATION_REVERTS'; reason: string }
  | { paid: false; unavailable: true; reason: string }

/**
 * Runs the account's own code as the EntryPoint would run it (eth_simulateV1, one block: the factory
 * called by the EntryPoint's SenderCreator where the account is not deployed yet, the account's
 * validateUserOp from the EntryPoint, then the callData from the EntryPoint) and reads the registry
 * and the token after it. The callData's calls decoded to a payment; this says whether this account,
 * whatever its code, makes that payment when it runs them, and measures each phase, so that the gas
 * the paymaster pays for is bounded by what the operation needs rather than by what it asks.
 * Validation runs with a placeholder signature (nothing is signed yet): an account is expected to
 * fail it softly (ERC-4337's SIG_VALIDATION_FAILED) at the cost of a real check.
 */
export async function simulateAccountPayment(client: PublicClient, parameters: SimulateAccountPaymentParameters): Promise<AccountPaymentSimulation> {
  const { entryPoint, registry, token, invoiceId, sender, callData, validation, factory } = parameters
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
            { account: entryPoint, to: sender, data: validation },
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
  const [validated, execution, invoice, allowance] = calls.slice(creation.length) as [
    (typeof calls)[number],
    (typeof calls)[number],
    { status: string; result: { status: number; payer: Address } },
    { status: string; result: bigint },
  ]
  const refused = (reason: string, refusal: 'EXECUTION_DOES_NOT_PAY' | 'VALIDATION_REVERTS' = 'EXECUTION_DOES_NOT_PAY') => ({ paid: false as const, refusal, reason })
  if (creation.length > 0 && calls[0]!.status !== 'success') return refused('the account factory reverts')
  if (validated.status !== 'success') {
    return refused("the account's validateUserOp reverts with the operation's placeholder signature: it must fail softly (SIG_VALIDATION_FAILED), as ERC-4337 asks, so its cost can be measured", 'VALIDATION_REVERTS')
  }
  if (execution.status !== 'success') return refused('the account reverts when it runs the calls')
  if (invoice.status !== 'success' || invoice.result.status !== 2 || !isAddressEqual(invoice.result.payer, sender)) {
    return refused('the account runs the calls without the invoice being paid by it')
  }
  if (allowance.status !== 'success' || allowance.result !== 0n) return refused('the account leaves an allowance to the registry behind')
  const net = (call: { gasUsed: bigint } | undefined, data: Hex) => (call ? positive((call.gasUsed * 5n) / 4n - intrinsicGasOf(data)) : 0n)
  return {
    paid: true,
    gas: {
      deployment: creation.length > 0 ? net(calls[0], factory!.data) : 0n,
      validation: net(validated, validation),
      execution: net(execution, callData),
    },
  }
}

const positive = (gas: bigint) => (gas > 0n ? gas : 0n)
