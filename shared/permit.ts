import { eip712DomainType, typedDataJson } from './typedDataJson'
import type { Address } from 'viem'

/** SPEC 8: a permit lasts an hour unless asked otherwise, at most a day, and is refused with under two
 * minutes left: too little to sign, submit and be included. Server, flow and verifier share these. */
export const defaultPermitSeconds = 3_600
export const maxPermitSeconds = 86_400
export const minPermitRemainingSeconds = 120

/** A signature's recovery byte as ecrecover, and so the token, wants it: 27 or 28. Wallets and
 * libraries also give it as the y-parity bit, 0 or 1; any other value is left for the token to refuse. */
export function ecrecoverV(v: number): number {
  return v === 0 || v === 1 ? v + 27 : v
}

/** The EIP-2612 struct every USDC-style token signs. */
export const permitTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export type PermitDomain = { name: string; version: string; chainId: number; verifyingContract: Address }
export type PermitMessage = { owner: Address; spender: Address; value: bigint; nonce: bigint; deadline: bigint }

export function permitTypedData(domain: PermitDomain, message: PermitMessage) {
  return { domain, types: permitTypes, primaryType: 'Permit' as const, message }
}

/** The EIP-712 domain type of a permit (see shared/typedDataJson.ts). */
export const permitDomainType = eip712DomainType

export function permitTypedDataJson(typedData: ReturnType<typeof permitTypedData>): string {
  return typedDataJson(typedData)
}

/** A payment that needs several permits lasts as long as the shortest: nothing signed may run past it. */
export function earliestDeadline(first: { deadline: bigint }, ...others: ({ deadline: bigint } | undefined)[]): bigint {
  return others.reduce((earliest, permit) => (permit && permit.deadline < earliest ? permit.deadline : earliest), first.deadline)
}
