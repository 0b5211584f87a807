import { getAddress, hexToBigInt, isAddressEqual, numberToHex, slice, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem'
import { entryPoint07Abi, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type { Deployment } from '../../shared/deployment'
import { sponsorshipWindowProblems } from '../../shared/sponsorshipWindowProblems'
import { encodeVerifyingPaymasterWindow, signVerifyingPaymasterData, type SponsorshipWindow } from '../../shared/verifyingPaymaster'
import { stubEcdsaSignature } from '../chain/stubEcdsaSignature'
import { signVerifyingPaymasterV06, verifyingPaymasterV06Data } from '../chain/verifyingPaymasterV06'
import { simulateAccountPayment } from '../chain/simulateAccountPayment'
import { validateUserOpCall, type ValidateUserOpCallParameters } from '../chain/validateUserOpCall'
import { referencePreVerificationGas } from '../chain/referencePreVerificationGas'
import { maxCountedSignatureBytes, measuredGasCeilings } from './measuredGasCeilings'
import { nowSeconds } from './assertPermitUsable'
import { decodeAccountCalls, selectorOf } from './decodeAccountCalls'
import { defaultSponsorshipWindowSeconds } from './payDependencies'
import { PaymasterRefusedError } from './paymasterRefusedError'
import type { PaymasterParams, PaymasterRpcResult, PaymasterUserOp } from './paymasterRequest'
import type { RegisteredMerchant } from './registeredMerchant'
import { unknownClient, type SponsorshipLimiter } from './sponsorshipLimiter'
import { verifyPaymentCalls, type VerifiedPaymentCalls } from './verifyPaymentCalls'

/** An EntryPoint the service sponsors on, and the VerifyingPaymaster it signs for there. */
export type ServedEntryPoint = { version: '0.7' | '0.6'; entryPoint: Address; paymaster: Address }

/** The most of each gas field the service pays for: the pinned deployment's defaults (deploy/deploymentFile.ts). */
export type SponsoredGasCeilings = Record<
  'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas' | 'paymasterVerificationGasLimit' | 'paymasterPostOpGasLimit' | 'maxFeePerGas' | 'maxPriorityFeePerGas',
  bigint
>

export const defaultSponsoredGasCeilings: SponsoredGasCeilings = {
  // an approval and a payment take ~150k: the rest is room for an account's own overhead
  callGasLimit: 1_000_000n,
  verificationGasLimit: 2_000_000n,
  preVerificationGas: 500_000n,
  paymasterVerificationGasLimit: 500_000n,
  paymasterPostOpGasLimit: 200_000n,
  maxFeePerGas: 1_000_000_000_000n,
  maxPriorityFeePerGas: 100_000_000_000n,
}

/** The tip an operation may offer, at most: twice what the node suggests now. The tip is what a
 * bundler earns from the paymaster's deposit, so one who bundles an account's operations itself must
 * not be able to set it: a fixed floor (this service once allowed at least 1 gwei) would be a thousand
 * times the going tip on a rollup whose nodes suggest a thousandth of a gwei. */
export function priorityFeeCeiling(suggested: bigint): bigint {
  return suggested * 2n
}

/** VerifyingPaymaster validation: the operation's hash and one ECDSA recovery (~20k measured; v0.6's
 * also writes the sender's paymaster nonce, 22,100 gas the first time). It has no postOp. */
const paymasterVerificationGas = 60_000n
const paymasterPostOpGas = 0n

export type PaymasterServiceDependencies = {
  client: PublicClient
  deployment: Deployment
  /** The VerifyingPaymasters' signer (PAYMASTER_SIGNER_PRIVATE_KEY); null: the service sponsors nothing. */
  signer: LocalAccount | null
  entryPoints: readonly ServedEntryPoint[]
  /** The same limits as /prepare's, in the same table: a payer cannot double its room by asking both. */
  sponsorships?: SponsorshipLimiter | undefined
  /** Only invoices of this server's merchants are sponsored (the registry lets anyone issue one). */
  registeredMerchant: RegisteredMerchant
  /** SPONSORSHIP_WINDOW_SECONDS: the same window as the vault flow's. */
  sponsorshipWindowSeconds?: number | undefined
  gasCeilings?: SponsoredGasCeilings
  now: () => number
}

export type PaymasterCall = { params: PaymasterParams; clientKey?: string | undefined }

/** Who deploys the account, for an operation that deploys it: v0.7 names the factory, v0.6 packs it into initCode. */
function factoryOf(userOp: PaymasterUserOp, version: ServedEntryPoint['version']): { address: Address; data: Hex } | undefined {
  if (version === '0.7') return userOp.factory ? { address: userOp.factory, data: userOp.factoryData ?? '0x' } : undefined
  const initCode = userOp.initCode ?? '0x'
  return initCode.length >= 42 ? { address: getAddress(slice(initCode, 0, 20)), data: slice(initCode, 20) } : undefined
}

/** Our paymaster fields at their final size, with a signature that recovers to nobody where ours will
 * go: v0.6's whole paymasterAndData, v0.7's paymasterData. What stub data answers, and what the
 * operation is measured with before it is signed. */
function stubPaymasterData(served: ServedEntryPoint, window: SponsorshipWindow): Hex {
  return served.version === '0.6'
    ? verifyingPaymasterV06Data(served.paymaster, window, stubEcdsaSignature)
    : `${encodeVerifyingPaymasterWindow(window)}${stubEcdsaSignature.slice(2)}`
}

/** The operation's numeric fields read, with the gas fields a stub request may still lack as 0. */
function readUserOp(userOp: PaymasterUserOp) {
  const big = (value: string | null | undefined) => (value ? hexToBigInt(value as Hex) : 0n)
  return {
    sender: userOp.sender,
    nonce: big(userOp.nonce),
    callData: userOp.callData,
    callGasLimit: big(userOp.callGasLimit),
    verificationGasLimit: big(userOp.verificationGasLimit),
    preVerificationGas: big(userOp.preVerificationGas),
    maxFeePerGas: big(userOp.maxFeePerGas),
    maxPriorityFeePerGas: big(userOp.maxPriorityFeePerGas),
  }
}

/**
 * Our ERC-7677 paymaster service for smart wallets that send their own operations (EIP-5792
 * `wallet_sendCalls` with `paymasterService`). It sponsors one thing: the batch that pays an Issued
 * invoice (verifyPaymentCalls), on the chain and EntryPoints it serves, within the sponsorship limits
 * and for the vault flow's window. Everything else is refused with a coded reason and no signature;
 * stub data is refused for the same reasons, so a wallet learns before it asks its user to sign.
 */
export function createPaymasterService(dependencies: PaymasterServiceDependencies) {
  const { client, deployment, signer, entryPoints, sponsorships, registeredMerchant, now } = dependencies
  const ceilings = dependencies.gasCeilings ?? defaultSponsoredGasCeilings
  const windowSeconds = BigInt(dependencies.sponsorshipWindowSeconds ?? defaultSponsorshipWindowSeconds)

  /** Everything both methods hold the request to, in the order a wallet can act on. */
  async function admissible({ params: [userOp, entryPoint, chainId], clientKey }: PaymasterCall, { final }: { final: boolean }) {
    if (!signer) throw new PaymasterRefusedError('PAYMASTER_SERVICE_OFF', 'this server sponsors through another paymaster service, not its own')
    if (hexToBigInt(chainId as Hex) !== BigInt(deployment.chainId)) {
      throw new PaymasterRefusedError('UNSUPPORTED_CHAIN', `chain ${hexToBigInt(chainId as Hex)} is not served: only ${deployment.chainId}`, { chainId: deployment.chainId })
    }
    const served = entryPoints.find((candidate) => isAddressEqual(candidate.entryPoint, entryPoint))
    if (!served) {
      throw new PaymasterRefusedError('UNSUPPORTED_ENTRY_POINT', `EntryPoint ${entryPoint} is not served: only ${entryPoints.map((e) => e.entryPoint).join(', ')}`, {
        entryPoints: entryPoints.map((e) => e.entryPoint),
      })
    }
    const op = readUserOp(userOp)
    for (const field of Object.keys(ceilings) as (keyof SponsoredGasCeilings)[]) {
      const given = field === 'paymasterVerificationGasLimit' || field === 'paymasterPostOpGasLimit' ? BigInt(userOp[field] ?? 0) : op[field]
      if (given > ceilings[field]) {
        throw new PaymasterRefusedError('GAS_LIMIT_TOO_HIGH', `${field} ${given} is above the ${ceilings[field]} this service pays for`, { field, max: ceilings[field].toString() })
      }
    }
    if (final && (op.callGasLimit === 0n || op.verificationGasLimit === 0n || op.maxFeePerGas === 0n)) {
      throw new PaymasterRefusedError('GAS_FIELDS_MISSING', 'pm_getPaymasterData needs the final gas fields: estimate them with the stub data first')
    }
    if (op.maxPriorityFeePerGas > 0n) {
      const ceiling = priorityFeeCeiling(await client.estimateMaxPriorityFeePerGas())
      if (op.maxPriorityFeePerGas > ceiling) {
        throw new PaymasterRefusedError('FEE_TOO_HIGH', `maxPriorityFeePerGas ${op.maxPriorityFeePerGas} is above the ${ceiling} this service pays now`, { max: ceiling.toString() })
      }
    }
    const decoded = decodeAccountCalls(userOp.callData)
    if (!decoded) {
      throw new PaymasterRefusedError('UNKNOWN_ACCOUNT_KIND', 'the callData is not a batch of an account kind this service reads (SimpleAccount, ERC-7579, Coinbase Smart Wallet)', {
        selector: selectorOf(userOp.callData),
      })
    }
    const payment = await verifyPaymentCalls({ client, deployment }, { calls: decoded.calls, sender: userOp.sender, now })
    if (!(await registeredMerchant(payment.merchant))) {
      throw new PaymasterRefusedError('MERCHANT_NOT_REGISTERED', `invoice ${payment.invoiceId} pays ${payment.merchant}, which is not a merchant of this service: it sponsors payments to its own merchants only`)
    }
    await assertCurrentNonce(served, userOp.sender, op.nonce)
    const claim = {
      invoice: { chainId: deployment.chainId, registry: deployment.registry, invoiceId: payment.invoiceId },
      sender: userOp.sender,
      // whoever holds the account's keys, it is one payer as far as the chain tells: counted as itself
      owner: userOp.sender,
      clientKey: clientKey ?? unknownClient,
      entryPoint: served.entryPoint,
      nonce: op.nonce,
    }
    // a request the limits will refuse is refused before anything is signed
    await sponsorships?.check(claim, now())
    const window = windowFor(payment)
    // the operation as it will run: our paymaster fields at their final size, the wallet's placeholder signature
    const { sponsorable, signatureBytes } = asSponsored(userOp, op, served, window)
    // the callData says "pay"; the account's own code, run, must do it; and what it measures bounds the gas
    const simulate = (measured: typeof sponsorable) =>
      simulateAccountPayment(client, {
        entryPoint: served.entryPoint,
        registry: deployment.registry,
        token: deployment.token,
        invoiceId: payment.invoiceId,
        sender: userOp.sender,
        callData: userOp.callData,
        // with the gas fields at the absolute bounds, whatever the wallet asked: what validation measures
        // then does not move with the bytes of the fields it is about to bound
        validation: validateUserOpCall({ ...atAbsoluteBounds(measured), chainId: deployment.chainId, entryPoint: served.entryPoint } as ValidateUserOpCallParameters),
        factory: factoryOf(userOp, served.version),
      })
    let simulation = await simulate(sponsorable)
    if (!simulation.paid && 'refusal' in simulation && simulation.refusal === 'VALIDATION_REVERTS' && sponsorable.userOp.signature !== stubEcdsaSignature) {
      // a wallet's placeholder that is no signature at all (a high s, say) makes an ECDSA account
      // revert where its real signature would not: measured again with a well-formed 65-byte one
      simulation = await simulate({ ...sponsorable, userOp: { ...sponsorable.userOp, signature: stubEcdsaSignature } } as typeof sponsorable)
    }
    if (!simulation.paid) {
      throw new PaymasterRefusedError('unavailable' in simulation ? 'SIMULATION_UNAVAILABLE' : simulation.refusal, simulation.reason)
    }
    if (final) {
      const paymasterValidation = served.version === '0.6' ? paymasterVerificationGas : 0n
      assertMeasuredGas(op, measuredGasCeilings(simulation.gas, referencePreVerificationGas(sponsorable, signatureBytes), { paymasterValidation }))
    }
    return { served, op, payment, claim, window }
  }

  /** The operation with this service's paymaster fields as they will be (a placeholder where the
   * signature goes) and the wallet's placeholder signature (ours where it sent none). */
  function asSponsored(userOp: PaymasterUserOp, op: ReturnType<typeof readUserOp>, served: ServedEntryPoint, window: SponsorshipWindow) {
    const given = userOp.signature && userOp.signature !== '0x' ? userOp.signature : stubEcdsaSignature
    const signatureBytes = Math.min(Math.max((given.length - 2) / 2, 65), maxCountedSignatureBytes)
    if (served.version === '0.6') {
      const userOpV06: UserOperation<'0.6'> = {
        ...op,
        initCode: userOp.initCode ?? '0x',
        paymasterAndData: stubPaymasterData(served, window),
        signature: given,
      }
      return { sponsorable: { version: '0.6' as const, userOp: userOpV06 }, signatureBytes }
    }
    const userOpV07: UserOperation<'0.7'> = {
      ...op,
      ...(userOp.factory ? { factory: userOp.factory, factoryData: userOp.factoryData ?? '0x' } : {}),
      paymaster: served.paymaster,
      ...paymasterGas(userOp),
      paymasterData: stubPaymasterData(served, window),
      signature: given,
    }
    return { sponsorable: { version: '0.7' as const, userOp: userOpV07 }, signatureBytes }
  }

  function atAbsoluteBounds<T extends { userOp: object }>(sponsorable: T): T {
    const { callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas } = ceilings
    return { ...sponsorable, userOp: { ...sponsorable.userOp, callGasLimit, verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas } }
  }

  /** Each gas field the operation asks for, held to what it measured with the stated margin. */
  function assertMeasuredGas(op: ReturnType<typeof readUserOp>, ceilings: ReturnType<typeof measuredGasCeilings>): void {
    for (const field of Object.keys(ceilings) as (keyof typeof ceilings)[]) {
      if (op[field] > ceilings[field]) {
        throw new PaymasterRefusedError(
          'GAS_LIMIT_TOO_HIGH',
          `${field} ${op[field]} is above the ${ceilings[field]} this operation needs: what it measured in simulation, with the margin this service allows (docs/api.md)`,
          { field, max: ceilings[field].toString() },
        )
      }
    }
  }

  /**
   * The nonce must be the one the EntryPoint would take from the sender now, for the key it names: a
   * signature for a later sequence would be a second live sponsorship the limits cannot see replaced
   * (the sender could ask for nonces 0..n and hold n+1 operations for one invoice, each valid until its
   * window ends). Operations for one slot replace each other in the limits: at most one of them runs.
   */
  async function assertCurrentNonce(served: ServedEntryPoint, sender: Address, nonce: bigint): Promise<void> {
    const key = nonce >> 64n
    const current = await client.readContract({ address: served.entryPoint, abi: entryPoint07Abi, functionName: 'getNonce', args: [sender, key] })
    if (nonce !== current) {
      throw new PaymasterRefusedError('NONCE_NOT_CURRENT', `the nonce ${numberToHex(nonce)} is not the sender's next one for its key at the EntryPoint (${numberToHex(current)}): sponsored operations are signed only for the nonce they can run with now`, {
        expected: numberToHex(current),
      })
    }
  }

  /** The vault flow's window: SPONSORSHIP_WINDOW_SECONDS from now, never past a permit in the batch. */
  function windowFor(payment: VerifiedPaymentCalls): SponsorshipWindow {
    const until = nowSeconds(now) + windowSeconds
    const permitDeadline = payment.allowance.kind === 'permit' ? payment.allowance.deadline : until
    const window = { validUntil: Number(until < permitDeadline ? until : permitDeadline), validAfter: 0 }
    const problems = sponsorshipWindowProblems(window, { permitDeadline, now: now() })
    if (problems.length > 0) throw new PaymasterRefusedError('PERMIT_EXPIRED', problems.map((problem) => problem.message).join(' '))
    return window
  }

  const paymasterGas = (userOp: PaymasterUserOp) => ({
    paymasterVerificationGasLimit: userOp.paymasterVerificationGasLimit ? hexToBigInt(userOp.paymasterVerificationGasLimit as Hex) : paymasterVerificationGas,
    paymasterPostOpGasLimit: userOp.paymasterPostOpGasLimit ? hexToBigInt(userOp.paymasterPostOpGasLimit as Hex) : paymasterPostOpGas,
  })

  return {
    entryPoints,

    /** pm_getPaymasterStubData: the paymaster fields at their final size, with a signature that
     * recovers to nobody, for gas estimation. Never final: the signed data is asked for after. */
    async stubData(call: PaymasterCall): Promise<PaymasterRpcResult> {
      const { served, window } = await admissible(call, { final: false })
      if (served.version === '0.6') return { paymasterAndData: stubPaymasterData(served, window), isFinal: false }
      return {
        paymaster: served.paymaster,
        paymasterData: stubPaymasterData(served, window),
        paymasterVerificationGasLimit: numberToHex(paymasterVerificationGas),
        paymasterPostOpGasLimit: numberToHex(paymasterPostOpGas),
        isFinal: false,
      }
    },

    /** pm_getPaymasterData: the signed paymaster fields, once the operation is admitted by the
     * sponsorship limits (recorded before the signature leaves the server, as /prepare's are). */
    async paymasterData(call: PaymasterCall): Promise<PaymasterRpcResult> {
      const { served, op, claim, window } = await admissible(call, { final: true })
      const [userOp] = call.params
      const active = signer!
      if (served.version === '0.6') {
        const unsigned = { ...op, initCode: userOp.initCode ?? '0x' }
        const paymasterAndData = await signVerifyingPaymasterV06(client, active, { paymaster: served.paymaster, userOp: unsigned, window })
        const userOpHash = getUserOperationHash({
          chainId: deployment.chainId,
          entryPointAddress: served.entryPoint,
          entryPointVersion: '0.6',
          userOperation: { ...unsigned, paymasterAndData, signature: '0x' } as UserOperation<'0.6'>,
        })
        await sponsorships?.admit({ ...claim, userOpHash, validUntil: window.validUntil }, now())
        return { paymasterAndData }
      }
      const gas = paymasterGas(userOp)
      const factory = userOp.factory ? { factory: userOp.factory, factoryData: userOp.factoryData ?? '0x' } : {}
      const sponsorable = { ...op, ...factory, paymaster: served.paymaster, ...gas }
      const paymasterData = await signVerifyingPaymasterData(active, sponsorable, { chainId: deployment.chainId, ...window })
      const userOpHash = getUserOperationHash({
        chainId: deployment.chainId,
        entryPointAddress: served.entryPoint,
        entryPointVersion: '0.7',
        userOperation: { ...sponsorable, paymasterData, signature: '0x' } as UserOperation<'0.7'>,
      })
      await sponsorships?.admit({ ...claim, userOpHash, validUntil: window.validUntil }, now())
      return {
        paymaster: served.paymaster,
        paymasterData,
        paymasterVerificationGasLimit: numberToHex(gas.paymasterVerificationGasLimit),
        paymasterPostOpGasLimit: numberToHex(gas.paymasterPostOpGasLimit),
      }
    },
  }
}

export type PaymasterService = ReturnType<typeof createPaymasterService>
