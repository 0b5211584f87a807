// A chunk of its own, fetched only when an operation is about to be signed: 21 KB of bytecode that no
// payer who only reads the invoice needs.
import { deployedBytecode } from '@account-abstraction/contracts/artifacts/EntryPointSimulations.json'
import type { Hex } from 'viem'

/** EntryPointSimulations v0.7 (eth-infinitism's release of the EntryPoint), as deployed: the code
 * bundlers place at the EntryPoint's address by a state override to simulate an operation against
 * the EntryPoint's own storage. Never deployed anywhere. */
export const entryPointSimulationsCode = deployedBytecode as Hex
