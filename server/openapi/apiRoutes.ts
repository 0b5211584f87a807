import type * as z from 'zod/mini'
import {
  createdTokenResponseSchema,
  createTokenRequestSchema,
  regeneratedShareLinkResponseSchema,
  revokedTokenResponseSchema,
  shareLinkResponseSchema,
  tokenListResponseSchema,
} from '../../src/merchant/shareWire'
import {
  invoiceResponseSchema,
  metadataResponseSchema,
  permitRequestSchema,
  permitResponseSchema,
  prepareRequestSchema,
  prepareResponseSchema,
  submitRequestSchema,
  submitResponseSchema,
} from '../../src/shared/wire'

/** One route of the JSON API, with the same schemas the server validates and the widget parses. */
export type ApiRoute = {
  method: 'get' | 'post' | 'delete'
  /** The full path, parameters as `{name}`. */
  path: string
  summary: string
  description?: string
  /** `merchant`: an API key (HMAC headers, SPEC 5.2) or a bearer token. */
  auth: 'none' | 'merchant'
  query?: { name: string; description: string; required?: boolean }[]
  body?: z.ZodMiniType
  /** The success answer: its status, and a JSON schema or another content type. */
  response: { status: number; schema?: z.ZodMiniType; contentType?: string; description: string }
  /** The error codes (SPEC 7) this route answers with, besides VALIDATION_ERROR and RATE_LIMITED. */
  errors: string[]
}

const tokenQuery = { name: 'token', description: 'The `svc_tk_` access token from the share link.' }

/** Every route of the JSON API (SPEC 4.12 and 4.14). A test holds it to the routes the server mounts. */
export const apiRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/v1/pay/{id}',
    summary: 'The invoice as the registry records it',
    auth: 'none',
    response: { status: 200, schema: invoiceResponseSchema, description: 'The invoice, read from the chain at `metadata.blockNumber`.' },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/pay/{id}/metadata',
    summary: 'The invoice with its decrypted metadata',
    description: 'With a valid token the decrypted metadata (`accessLevel: full`); without one, or with a wrong, expired or revoked one, the on-chain record alone (`onchain_only`). The metadata hashes to the on-chain `metaHash`: a client should check it.',
    auth: 'none',
    query: [tokenQuery],
    response: { status: 200, schema: metadataResponseSchema, description: 'The invoice and, with a valid token, its metadata.' },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/pay/{id}/pdf',
    summary: 'The invoice as a PDF',
    auth: 'none',
    query: [{ ...tokenQuery, required: true }],
    response: { status: 200, contentType: 'application/pdf', description: 'The PDF, as an attachment.' },
    errors: ['TOKEN_REQUIRED', 'UNAUTHORIZED', 'NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/pay/{id}/permit',
    summary: 'The EIP-2612 permit the payer signs',
    description: '`payerAddress` is the payer vault: the vault factory\'s `getAddress(owner, 0)`. The vault\'s owner signs the returned typed data with `eth_signTypedData_v4`; a `v` of 0 or 1 is accepted wherever the signature is sent back. With `fundingFrom` (an extension of SPEC 4.14: the vault\'s owner) and while the vault lacks part of the amount, also `fundingPermitToSign`: the owner\'s account lets the vault take exactly that part, until the same deadline, for `/prepare`\'s `funding`.',
    auth: 'none',
    body: permitRequestSchema,
    response: { status: 200, schema: permitResponseSchema, description: 'The typed data to sign, and the invoice.' },
    errors: ['INVALID_STATUS', 'NOT_FOUND', 'TOKEN_NOT_SUPPORTED', 'FUNDING_OWNER_MISMATCH'],
  },
  {
    method: 'post',
    path: '/v1/pay/{id}/prepare',
    summary: 'The sponsored ERC-4337 operation that pays the invoice',
    description: 'The server verifies the signed permit on-chain, builds the vault\'s operation (EntryPoint v0.7) and has the paymaster sponsor it. The owner signs `userOpHash` with `personal_sign` (EIP-191 over its 32 bytes), after checking the operation: a client must recompute the hash and decode the callData before signing. Optional `funding` (an extension of SPEC 4.14) pays from the owner\'s own account when the vault lacks part of the amount: `from` is `ownerAddress`, `amount` exactly what the vault lacks, and `permit` the owner\'s EIP-2612 permit letting `payerAddress` take that amount; the operation is then the vault\'s `executeBatch` of that permit, `transferFrom(from, payerAddress, amount)` and the payment, all or nothing, sponsored until the earlier of the two permit deadlines.',
    auth: 'none',
    body: prepareRequestSchema,
    response: { status: 200, schema: prepareResponseSchema, description: 'The operation, its hash and the permit deadline.' },
    errors: [
      'INVALID_STATUS',
      'NOT_FOUND',
      'PERMIT_EXPIRED',
      'PERMIT_SIGNATURE_INVALID',
      'INSUFFICIENT_BALANCE',
      'FUNDING_OWNER_MISMATCH',
      'FUNDING_AMOUNT_MISMATCH',
      'FUNDING_PERMIT_INVALID',
      'PAYMASTER_UNAVAILABLE',
    ],
  },
  {
    method: 'post',
    path: '/v1/pay/{id}',
    summary: 'Submit the signed operation',
    description: 'Answers `confirmed` with the transaction once the bundler has a receipt, else `pending` (202): the chain then says what happened.',
    auth: 'none',
    body: submitRequestSchema,
    response: { status: 200, schema: submitResponseSchema, description: 'Confirmed, or pending (202).' },
    errors: ['INVALID_STATUS', 'NOT_FOUND', 'USEROP_NOT_PREPARED', 'USEROP_PERMIT_MISMATCH', 'USEROP_SIGNATURE_INVALID', 'PERMIT_EXPIRED', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'],
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}/share',
    summary: 'The invoice\'s share link',
    auth: 'merchant',
    response: { status: 200, schema: shareLinkResponseSchema, description: 'The current share link.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/invoices/{id}/share/regenerate',
    summary: 'Revoke every token of the invoice and issue a new share link',
    auth: 'merchant',
    response: { status: 200, schema: regeneratedShareLinkResponseSchema, description: 'The new share link.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/invoices/{id}/tokens',
    summary: 'The invoice\'s access tokens, without their secrets',
    auth: 'merchant',
    response: { status: 200, schema: tokenListResponseSchema, description: 'Every token with its status.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'post',
    path: '/v1/invoices/{id}/tokens',
    summary: 'A new access token for the invoice',
    auth: 'merchant',
    body: createTokenRequestSchema,
    response: { status: 201, schema: createdTokenResponseSchema, description: 'The token, shown once.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
  {
    method: 'delete',
    path: '/v1/invoices/{id}/tokens/{tokenId}',
    summary: 'Revoke an access token',
    auth: 'merchant',
    response: { status: 200, schema: revokedTokenResponseSchema, description: 'Revoked.' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
  },
]
