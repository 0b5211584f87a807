import * as z from 'zod/mini'
import { addressSchema, bytes32Schema, uintStringSchema } from '../../../shared/deployment'
import { invoiceMetadataSchema } from '../../../shared/metadata'
import { wireUserOpSchema } from '../../../shared/wire'
import { deliverySchema } from './issueWire'

/** SPEC 4.10: POST /v1/invoices/prepare and POST /v1/invoices, their bodies and answers. */

const maxUint64 = 2n ** 64n - 1n
const maxUint256 = 2n ** 256n - 1n

/** A whole number as a decimal string (preferred) or a JSON integer a client's number holds exactly. */
const wholeNumber = (what: string, max: bigint) =>
  z.pipe(
    z.union([
      z.string().check(z.regex(/^(0|[1-9]\d{0,77})$/, `${what} is a whole number written in decimal`)),
      z.int(`${what} is a whole number, preferably a decimal string`).check(z.minimum(0, `${what} must not be negative`)),
    ]),
    z.pipe(
      z.transform((value: string | number) => BigInt(value)),
      z.bigint().check(z.refine((value) => value <= max, `${what} is too large`)),
    ),
  )

/** The registry stores at most this many bytes of tokenURI per invoice here: an on-chain string
 * every issuance pays calldata and storage for. */
export const maxTokenUriLength = 2_048

export const prepareIssueRequestSchema = z.strictObject({
  ownerAddress: addressSchema,
  amount: z.pipe(wholeNumber('the amount', maxUint256), z.bigint().check(z.refine((value) => value > 0n, 'the amount must be positive'))),
  dueAt: wholeNumber('dueAt (Unix seconds)', maxUint64),
  issuedAt: wholeNumber('issuedAt (Unix seconds)', maxUint64),
  tokenURI: z.string().check(z.maxLength(maxTokenUriLength, `the tokenURI is at most ${maxTokenUriLength} characters`)),
  metaHash: bytes32Schema,
  mandateHash: bytes32Schema,
  quoteId: z.optional(z.string().check(z.minLength(1), z.maxLength(200, 'the quoteId is at most 200 characters'))),
  customerId: z.optional(z.uuid('the customer id is a customer UUID (POST /v1/customers answers it)')),
  metadata: z.optional(invoiceMetadataSchema),
})

export type PrepareIssueRequest = z.output<typeof prepareIssueRequestSchema>

const idempotencySchema = z.optional(z.object({ key: z.string(), replayed: z.boolean(), state: z.enum(['confirmed', 'pending']) }))

/** The MerchantVault's typed Issue message (shared/merchantVaultMessage.ts), integers as decimal
 * strings: what the owner's wallet shows and signs (eth_signTypedData_v4), never a bare hash. */
export const issueTypedDataSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.int(), verifyingContract: addressSchema }),
  types: z.object({ Issue: z.array(z.object({ name: z.string(), type: z.string() })) }),
  primaryType: z.literal('Issue'),
  message: z.object({
    registry: addressSchema,
    token: addressSchema,
    amount: uintStringSchema,
    dueAt: uintStringSchema,
    metaHash: bytes32Schema,
    tokenURI: z.string(),
    vault: addressSchema,
    validUntil: uintStringSchema,
    operation: bytes32Schema,
  }),
})

/** Where the metadata a prepare was given is kept until the invoice exists. */
export const preparedEncryptionSchema = z.object({
  /** Pass it as POST /v1/invoices' pendingInvoiceId: the prepared operation's userOpHash, under which
   * the server keeps the metadata sealed until the operation lands. */
  pendingInvoiceId: bytes32Schema,
  /** Always null: there is no IPFS here. The metadata is kept encrypted in this server's database,
   * bound to metaHash, and served through the share link. */
  ipfsCid: z.null(),
  metaHash: bytes32Schema,
  /** Null at prepare: a share link names the invoice's id, which the registry gives only when the
   * operation lands. POST /v1/invoices answers it, tokenized. */
  shareLink: z.null(),
})

export const prepareIssueResponseSchema = z.object({
  success: z.literal(true),
  /** Sponsored by our paymaster: sign it exactly as it is, its signature the message's `validUntil`
   * as 6 bytes (big-endian) followed by the owner's 65-byte signature of `typedDataToSign`. */
  userOp: wireUserOpSchema,
  userOpHash: bytes32Schema,
  expiresAt: z.iso.datetime(),
  typedDataToSign: issueTypedDataSchema,
  encryption: z.optional(preparedEncryptionSchema),
  idempotency: idempotencySchema,
})

export const submitIssueRequestSchema = z
  .strictObject({
    userOp: wireUserOpSchema,
    pendingInvoiceId: z.optional(bytes32Schema),
    sendEmail: z.optional(z.boolean('sendEmail is true or false')),
    customerId: z.optional(z.uuid('the customer id is a customer UUID (POST /v1/customers answers it)')),
  })
  .check(
    z.superRefine((body, context) => {
      if (body.sendEmail && body.customerId === undefined) {
        context.issues.push({ code: 'custom', path: ['customerId'], message: 'sendEmail needs the customer to mail: send its customerId', input: body })
      }
      if (body.sendEmail && body.pendingInvoiceId === undefined) {
        context.issues.push({
          code: 'custom',
          path: ['pendingInvoiceId'],
          message: 'the mail carries the invoice and its share link, which exist only for an invoice prepared with its metadata: send the pendingInvoiceId prepare answered',
          input: body,
        })
      }
    }),
  )

export type SubmitIssueRequest = z.output<typeof submitIssueRequestSchema>

/** 200: on-chain. `invoiceId` (not `id`, as /issue names it); the share link when the prepare kept
 * the invoice's metadata. */
export const confirmedIssueSchema = z.object({
  status: z.literal('confirmed'),
  userOpHash: bytes32Schema,
  txHash: bytes32Schema,
  invoiceId: uintStringSchema,
  shareLink: z.optional(z.url()),
  paymentUrl: z.optional(z.url()),
  delivery: z.optional(deliverySchema),
  idempotency: idempotencySchema,
})

export const submitIssueResponseSchema = z.union([
  confirmedIssueSchema,
  z.object({ status: z.literal('pending'), userOpHash: bytes32Schema, message: z.string(), idempotency: idempotencySchema }),
])
