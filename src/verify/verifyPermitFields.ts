import { getAddress, type Address } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { permitTypedData } from '../../shared/permit'
import type { PermitToSign } from '../../shared/wire'
import { checkPermitShape, pinnedPermitDomain } from './checkPermitShape'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type UnsafeProblemCode } from './unsafeProblem'
import type { VerifyPermitToSignReturnType } from './verifyPermitToSign'

/** Who lets whom take how much, and the token's next nonce for the owner: what the payer means to sign. */
export type PermitFields = { owner: Address; spender: Address; value: bigint; nonce: bigint }

/** The code each differing field is refused with: one permit's owner is the vault, another's the wallet. */
export type PermitFieldCodes = Record<keyof PermitFields, UnsafeProblemCode>

export type VerifyPermitFieldsParameters = { deployment: PinnedDeployment; now: number; expected: PermitFields; codes: PermitFieldCodes; problems?: UnsafeProblem[] }

/**
 * A permit of the pinned token (checkPermitShape) whose fields are exactly `expected`; on success, the
 * typed data rebuilt from the pinned domain and `expected` alone, which is what the wallet signs.
 * `problems`: the caller's own findings, refused together with these.
 */
export function verifyPermitFields(
  permitToSign: PermitToSign,
  { deployment, now, expected, codes, problems: found = [] }: VerifyPermitFieldsParameters,
): VerifyPermitToSignReturnType {
  const { message } = permitToSign
  const problems = [...found, ...checkPermitShape(permitToSign, deployment, now)]
  const fields = ['owner', 'spender', 'value', 'nonce'] as const
  for (const field of fields) {
    const got = message[field]
    const want = expected[field]
    const same = typeof want === 'bigint' ? BigInt(got) === want : sameAddress(got, want)
    if (!same) problems.push({ code: codes[field], message: `The permit's ${field} is ${got}, not ${want}.` })
  }
  return verdict(problems, () => ({
    typedData: permitTypedData(pinnedPermitDomain(deployment), {
      owner: getAddress(expected.owner),
      spender: getAddress(expected.spender),
      value: expected.value,
      nonce: expected.nonce,
      deadline: BigInt(message.deadline),
    }),
  }))
}
