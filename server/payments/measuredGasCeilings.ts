import type { MeasuredAccountGas } from '../chain/simulateAccountPayment'

/**
 * What the paymaster pays for, at most, beyond what the operation measured in simulation. A bundler
 * that bundles its own operations is paid what the EntryPoint charges the paymaster: the whole
 * preVerificationGas, the gas the operation used, and a tenth of the call gas it left unused
 * (v0.7). Whatever the ceilings allow above the operation's real cost is the most such a bundler can
 * keep. They leave room for a bundler's own estimate (alto's: verification ×1.3, preVerificationGas
 * ×1.1, call gas as measured), and no more. On top of them, the refunds a payment earns (the allowance
 * it clears) go to whoever sends the bundle, as with every ERC-4337 operation.
 */
export const sponsoredGasMargins = {
  /** The account's deployment and validation as measured, three tenths again (alto's own multiplier),
   * and the EntryPoint's own work inside that budget (hashing and copying the operation, and the
   * nonce's first write, 22,100 gas, for a key not used before). v0.7
   * charges verification as used, so the room only bounds what an account could burn there. */
  verificationGasLimit: { percent: 30n, fixed: 40_000n },
  /** The calls as measured (already their most, before refunds), a tenth again: the room a bundler's
   * estimate takes. A tenth of the unused part is what v0.7 charges for it. */
  callGasLimit: { percent: 10n, fixed: 10_000n },
  /** The bundle transaction's own cost for this operation (ERC-4337's reference overheads: 21,000 for
   * a bundle of one, 18,300 per operation, its calldata at 4/16 gas a byte and 4 a word), a tenth
   * again (alto's own multiplier): all of it is paid to the bundler whatever the operation uses. */
  preVerificationGas: { percent: 10n, fixed: 5_000n },
} as const

type CeilingField = keyof typeof sponsoredGasMargins

/** The wallet's placeholder signature counts for its length, but for no more than this: a longer one
 * than the wallet then signs with would be paid for in preVerificationGas (16 gas a byte). 1 KiB holds
 * an ERC-6492 wrapper or a WebAuthn assertion. */
export const maxCountedSignatureBytes = 1_024

const withMargin = (measured: bigint, { percent, fixed }: { percent: bigint; fixed: bigint }) => measured + (measured * percent) / 100n + fixed

/** The most of each measured gas field the paymaster pays for this operation. `paymasterValidation`:
 * on EntryPoint v0.6 the paymaster's validation runs within verificationGasLimit too (v0.7 gives it a
 * limit of its own), so its allowance is added there. */
export function measuredGasCeilings(measured: MeasuredAccountGas, preVerificationGas: bigint, { paymasterValidation = 0n }: { paymasterValidation?: bigint } = {}): Record<CeilingField, bigint> {
  return {
    verificationGasLimit: withMargin(measured.deployment + measured.validation, sponsoredGasMargins.verificationGasLimit) + paymasterValidation,
    callGasLimit: withMargin(measured.execution, sponsoredGasMargins.callGasLimit),
    preVerificationGas: withMargin(preVerificationGas, sponsoredGasMargins.preVerificationGas),
  }
}
