import { getAddress } from 'viem'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import { maxPermitSeconds, permitTypes, type PermitDomain } from '../../shared/permit'
import type { PermitToSign } from '../../shared/wire'
import { sameAddress } from './sameAddress'
import type { UnsafeProblem } from './unsafeProblem'

/** What every permit the payer signs shares, whoever it lets spend what: an EIP-2612 permit of the
 * pinned token on the pinned chain, under the token's own domain, for a bounded time. */
export function checkPermitShape({ domain, types, primaryType, message }: PermitToSign, deployment: PinnedDeployment, now: number): UnsafeProblem[] {
  const problems: UnsafeProblem[] = []
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
  problems.push(...checkDeadline(BigInt(message.deadline), BigInt(Math.floor(now / 1000))))
  return problems
}

/** The domain a rebuilt permit is signed under: the pinned token's, never the server's word for it. */
export function pinnedPermitDomain(deployment: PinnedDeployment): PermitDomain {
  return { ...deployment.permitDomain, chainId: deployment.chainId, verifyingContract: getAddress(deployment.token) }
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
