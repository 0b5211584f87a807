/** Why the widget refuses to sign. Codes are stable (the UI and tests key on them); messages are
 * written for the payer, who has to decide whether to trust this checkout again. */
export type UnsafeProblemCode =
  // the invoice (GET /v1/pay/:id) against the registry on-chain
  | 'INVOICE_NOT_ON_CHAIN'
  | 'INVOICE_DIFFERS_FROM_CHAIN'
  // the prepared operation (POST /prepare)
  | 'USEROP_HASH_MISMATCH'
  | 'SENDER_MISMATCH'
  | 'CALLDATA_UNDECODABLE'
  | 'CALLDATA_NOT_CANONICAL'
  // the payment the call makes: the registry it pays through, the invoice, whom, in what, how much
  | 'CALL_TARGET_MISMATCH'
  | 'INVOICE_ID_MISMATCH'
  | 'INVOICE_NUMBER_MISMATCH'
  | 'FEE_MISMATCH'
  | 'MERCHANT_MISMATCH'
  | 'PERMIT_MISMATCH'
  | 'PERMIT_DEADLINE_MISMATCH'
  | 'EXPIRY_AFTER_PERMIT'
  | 'FACTORY_UNEXPECTED'
  | 'FACTORY_MISSING'
  | 'FACTORY_MISMATCH'
  | 'FACTORY_OWNER_MISMATCH'
  | 'FACTORY_DATA_MISMATCH'
  | 'PAYMASTER_MISSING'
  | 'PAYMASTER_MISMATCH'
  | 'PAYMASTER_DATA_MALFORMED'
  | 'SPONSORSHIP_UNBOUNDED'
  | 'SPONSORSHIP_OUTLIVES_PERMIT'
  | 'SPONSORSHIP_NOT_YET_VALID'
  // the operation run through the pinned RPC before it is signed (src/chain/simulatePayment.ts)
  | 'SIMULATION_REVERTED'
  | 'SIMULATION_NOT_PAID'
  | 'SIMULATION_UNEXPECTED_EFFECT'
  | 'NONCE_KEY_NONZERO'
  | 'NONCE_MISMATCH'
  | 'GAS_ABOVE_LIMIT'
  | 'RESPONSE_INVOICE_MISMATCH'
  | 'AMOUNT_MISMATCH'
  | 'TOKEN_MISMATCH'
  | 'TOKEN_NOT_ACCEPTED'
  // the permit to sign (POST /permit)
  | 'CHAIN_MISMATCH'
  | 'PERMIT_TOKEN_MISMATCH'
  | 'PERMIT_DOMAIN_MISMATCH'
  | 'PERMIT_NONCE_MISMATCH'
  | 'PRIMARY_TYPE_MISMATCH'
  | 'PERMIT_TYPES_MISMATCH'
  | 'OWNER_MISMATCH'
  | 'SPENDER_MISMATCH'
  | 'DEADLINE_PASSED'
  | 'DEADLINE_TOO_FAR'
  // the funding permit (the payer's own account lets its vault take what the vault lacks); AMOUNT and
  // PERMIT also when the funded operation carries another amount or permit than the payer signed
  | 'FUNDING_OWNER_MISMATCH'
  | 'FUNDING_SPENDER_MISMATCH'
  | 'FUNDING_AMOUNT_MISMATCH'
  | 'FUNDING_NONCE_MISMATCH'
  | 'FUNDING_OUTLIVES_PERMIT'
  | 'FUNDING_PERMIT_MISMATCH'

/** `fields` names what differs, where a check compares several (the payer is told which). */
export type UnsafeProblem = { code: UnsafeProblemCode; message: string; fields?: string[] }

/** What a verifier answers: the checked value to use, or every reason not to. */
export type Verdict<T> = ({ ok: true } & T) | { ok: false; problems: UnsafeProblem[] }

export function verdict<T extends object>(problems: UnsafeProblem[], checked: () => T): Verdict<T> {
  return problems.length > 0 ? { ok: false, problems } : { ok: true, ...checked() }
}
