import { CodedError } from '../../shared/codedError'
import { http, isAddressEqual, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem'
import { createPaymasterClient, type UserOperation } from 'viem/account-abstraction'
import type { Deployment } from '../../shared/deployment'
import { assertSponsorshipUsable } from './assertSponsorshipUsable'
import { stubEcdsaSignature } from './stubEcdsaSignature'
import { encodeVerifyingPaymasterWindow, signVerifyingPaymasterData } from '../../shared/verifyingPaymaster'
import { boundedTransport, upstreamBusy, upstreamCallsInFlight, upstreamQueueLimit } from './boundedTransport'

export type Sponsorship = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  /** The end of the window as signed, where a service may sign another than the one asked for. */
  validUntil?: number
}

/** The window asked for (`validUntil`, Unix seconds), and the latest a service's own may end: the
 * permit's deadline (the widget's rule), when it is later than the one asked for. */
export type SponsorshipRequest = { validUntil: number; permitDeadline?: number }

/** Paymaster sponsorship in two steps, as ERC-7677 defines them: stub data of the final size for gas
 * estimation, then the signed data once every other field is fixed. */
export type Sponsor = {
  stub(userOp: UserOperation<'0.7'>, window: SponsorshipRequest): Promise<Sponsorship>
  sign(userOp: UserOperation<'0.7'>, window: SponsorshipRequest): Promise<Sponsorship>
}

export class SponsorUnavailableError extends CodedError {
  override name = 'SponsorUnavailableError'
  readonly code = 'PAYMASTER_UNAVAILABLE'
}

/** VerifyingPaymaster validation: hash of the operation plus one ECDSA recovery (~20k measured). */
const verifyingPaymasterGas = 60_000n

/** This server signs for the VerifyingPaymaster with a local key. */
export function localVerifyingSponsor({ deployment, signer }: { deployment: Deployment; signer: LocalAccount }): Sponsor {
  const limits = { paymaster: deployment.paymaster, paymasterVerificationGasLimit: verifyingPaymasterGas, paymasterPostOpGasLimit: 0n }
  return {
    async stub(_userOp, { validUntil }) {
      const window = { chainId: deployment.chainId, validUntil, validAfter: 0 }
      return { ...limits, paymasterData: `${encodeVerifyingPaymasterWindow(window)}${stubEcdsaSignature.slice(2)}` }
    },
    async sign(userOp, { validUntil }) {
      const paymasterData = await signVerifyingPaymasterData(signer, { ...userOp, ...limits }, { chainId: deployment.chainId, validUntil, validAfter: 0 })
      return { ...limits, paymasterData }
    },
  }
}

/**
 * Any ERC-7677 paymaster service. The window is asked for as context, both as an end (`validUntil`)
 * and as a lifetime (`validForSeconds`, pimlico's name for it); a service may ignore either (pimlico's
 * mock signs 60,000 s from its own clock whatever it is asked), so what it signed is read back from
 * its paymaster before the operation is handed out.
 */
export function erc7677Sponsor({
  url,
  deployment,
  client,
  now,
  queueLimit = upstreamQueueLimit,
}: { url: string; deployment: Deployment; client: PublicClient; now: () => number; queueLimit?: number }): Sponsor {
  const service = createPaymasterClient({
    transport: boundedTransport(http(url, { retryCount: 0, timeout: 10_000 }), { limit: upstreamCallsInFlight, queueLimit, service: 'the paymaster service' }),
  })
  const base = { chainId: deployment.chainId, entryPointAddress: deployment.entryPoint }
  const context = (validUntil: number) => ({ validUntil, validForSeconds: validUntil - Math.floor(now() / 1000) })
  const call = async <T extends { paymaster?: Address | undefined }>(run: () => Promise<T>) => {
    let answer: T
    try {
      answer = await run()
    } catch (cause) {
      throw upstreamBusy(cause) ?? new SponsorUnavailableError('the paymaster service did not sponsor the operation', { cause })
    }
    // the widget refuses any other paymaster as unsafe: better a retryable 502 here than a dead end there
    if (!answer.paymaster || !isAddressEqual(answer.paymaster, deployment.paymaster)) {
      throw new SponsorUnavailableError(`the paymaster service answered for ${answer.paymaster ?? 'no paymaster'}, not ${deployment.paymaster}`)
    }
    return answer
  }
  return {
    async stub(userOp, { validUntil }) {
      const stub = await call(() => service.getPaymasterStubData({ ...userOp, ...base, context: context(validUntil) }))
      return {
        paymaster: deployment.paymaster,
        paymasterData: stub.paymasterData as Hex,
        paymasterVerificationGasLimit: stub.paymasterVerificationGasLimit ?? verifyingPaymasterGas,
        paymasterPostOpGasLimit: stub.paymasterPostOpGasLimit ?? 0n,
      }
    },
    async sign(userOp, { validUntil, permitDeadline = validUntil }) {
      const data = await call(() => service.getPaymasterData({ ...userOp, ...base, context: context(validUntil) }))
      const sponsorship = {
        paymaster: deployment.paymaster,
        paymasterData: data.paymasterData as Hex,
        paymasterVerificationGasLimit: userOp.paymasterVerificationGasLimit ?? verifyingPaymasterGas,
        paymasterPostOpGasLimit: userOp.paymasterPostOpGasLimit ?? 0n,
      }
      // a service that signs a longer window than asked (pimlico's mock signs its own) is still usable
      // up to the permit; what it signed is what the sponsorship limits count
      const signed = await assertSponsorshipUsable(client, deployment, { ...userOp, ...sponsorship }, { permitDeadline: BigInt(permitDeadline), now: now() })
      return { ...sponsorship, validUntil: signed.validUntil }
    },
  }
}
