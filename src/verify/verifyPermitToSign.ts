import { getAddress, type Address } from 'viem'
import type { PinnedDeployment } from '../config/pinnedDeployment'
import { maxPermitSeconds, permitTypedData, permitTypes } from '../shared/permit'
import type { PermitToSign } from '../shared/wire'
import { checkAcceptedToken, type PaymentInvoice } from './paymentInvoice'
import { sameAddress } from './sameAddress'
import { verdict, type UnsafeProblem, type Verdict } from './unsafeProblem'

export type PermitTypedData = ReturnType<typeof permitTypedData>

export type VerifyPermitToSignExpected = {
  /** Pinned in the build; never taken from the server being checked. */
  deployment: PinnedDeployment
  vault: Address
  invoice: PaymentInvoice
  /** The token's nonces(vault), read from the chain: a permit for any other nonce is not the one the
   * token would take next. */
  nonce: bigint
  /** Milliseconds since the epoch, as Date.now(). */
  now: number
}

/** On success, typed data rebuilt from the pinned deployment and the checked fields alone: the wallet
 * signs what was checked, never the server's object with whatever else it carries. */
export type VerifyPermitToSignReturnType = Verdict<{ typedData: PermitTypedData }>

/** An EIP-2612 permit is a spending authorisation: before the payer signs one, it must let exactly the
 * invoice registry take exactly the invoice amount of the accepted token from the payer's vault, for a
 * bounded time, on the pinned chain. */
export function verifyPermitToSign(permitToSign: PermitToSign, expected: VerifyPermitToSignExpected): VerifyPermitToSignReturnType {
  const { domain, types, primaryType, message } = permitToSign
  const { deployment, vault, invoice } = expected
  const problems = checkAcceptedToken(invoice, deployment)
  if (domain.chainId !== deployment.chainId) {
    problems.push({ code: 'CHAIN_MISMATCH', message: `The permit is for chain ${domain.chainId}, not chain ${deployment.chainId}.` })
  }
  if (domain.name !== deployment.permitDomain.name || domain.version !== deployment.permitDomain.version) {
    problems.push({
      code: 'PERMIT_DOMAIN_MISMATCH',
      message: `The permit names the domain "${domain.name}" version "${domain.version}", not the token's "${deployment.permitDomain.name}" version "${deployment.permitDomain.version}".`,
    })
  }
  if (!sameAddress(domain.verifyingContract, deployment.token)) {
    problems.push({
      code: 'PERMIT_TOKEN_MISMATCH',
      message: `The permit is for token ${domain.verifyingContract}, not the accepted token ${deployment.token}.`,
    })
  }
  if (primaryType !== 'Permit') {
    problems.push({ code: 'PRIMARY_TYPE_MISMATCH', message: `You would sign a ${String(primaryType)}, not a token permit.` })
  }
  if (!isPermitStruct(types)) {
    problems.push({ code: 'PERMIT_TYPES_MISMATCH', message: 'The permit is not a standard token permit (EIP-2612).' })
  }
  if (!sameAddress(message.owner, vault)) {
    problems.push({ code: 'OWNER_MISMATCH', message: `The permit spends from ${message.owner}, not from your vault ${vault}.` })
  }
  if (!sameAddress(message.spender, deployment.registry)) {
    problems.push({
      code: 'SPENDER_MISMATCH',
      message: `The permit lets ${message.spender} spend your funds, not the invoice registry ${deployment.registry}.`,
    })
  }
  if (BigInt(message.value) !== invoice.amount) {
    problems.push({
      code: 'AMOUNT_MISMATCH',
      message: `The permit allows ${message.value} instead of the invoice amount ${invoice.amount} (in the token's smallest unit).`,
    })
  }
  if (BigInt(message.nonce) !== expected.nonce) {
    problems.push({
      code: 'PERMIT_NONCE_MISMATCH',
      message: `The permit uses nonce ${message.nonce}, but the token's next permit nonce for your vault is ${expected.nonce}.`,
    })
  }
  problems.push(...checkDeadline(BigInt(message.deadline), BigInt(Math.floor(expected.now / 1000))))
  return verdict(problems, () => ({
    typedData: permitTypedData(
      { ...deployment.permitDomain, chainId: deployment.chainId, verifyingContract: getAddress(deployment.token) },
      {
        owner: getAddress(vault),
        spender: getAddress(deployment.registry),
        value: invoice.amount,
        nonce: expected.nonce,
        deadline: BigInt(message.deadline),
      },
    ),
  }))
}

function isPermitStruct(types: PermitToSign['types']): boolean {
  const keys = Object.keys(types)
  const fields = types.Permit
  return (
    keys.length === 1 &&
    keys[0] === 'Permit' &&
    fields.length === permitTypes.Permit.length &&
    permitTypes.Permit.every((field, i) => fields[i]?.name === field.name && fields[i]?.type === field.type)
  )
}

function checkDeadline(deadline: bigint, nowSeconds: bigint): UnsafeProblem[] {
  if (deadline <= nowSeconds) {
    return [{ code: 'DEADLINE_PASSED', message: 'The permit has already expired.' }]
  }
  if (deadline > nowSeconds + BigInt(maxPermitSeconds)) {
    return [{ code: 'DEADLINE_TOO_FAR', message: 'The permit would stay valid for more than 24 hours.' }]
  }
  return []
}
