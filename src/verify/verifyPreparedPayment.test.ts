import { concat, encodeFunctionData, getAddress, recoverTypedDataAddress, type Address, type Hex } from 'viem'
import { entryPoint06Address, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  decodePayCallData,
  encodeCreateVault,
  encodePayCallData,
  type PayCall,
  type PermitSignature,
} from '../../shared/payCall'
import { vaultFactoryAbi } from '../../shared/vaultFactoryAbi'
import { encodeFundedPayCallData } from '../../shared/fundedPayCall'
import { paymentTypedData } from '../../shared/paymentMessage'
import { type WireInvoice } from '../../shared/wire'
import { fromWireUserOp } from '../../shared/userOpWire'
import { onchainPaymentInvoice, paymentInvoice } from './paymentInvoice'
import { prepareTestPayment, signTestPermit, testDeployment, testFeeBps, testInvoice, testOnchainInvoice, type PrepareTestPaymentParameters } from './preparedPayment.fixture'
import { verifyPreparedPayment, type VerifyPreparedPaymentReturnType } from './verifyPreparedPayment'
import type { PrepareResponse } from '../api/createPayApi'

const now = Date.UTC(2026, 0, 15, 12)
const deadline = BigInt(now / 1000) + 3600n

function someAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address
}

async function scenario({ vaultDeployed = false, invoice: invoiceOverrides = {} }: { vaultDeployed?: boolean; invoice?: Partial<WireInvoice> } = {}) {
  const deployment = testDeployment()
  const owner = privateKeyToAccount(generatePrivateKey())
  const vault = someAddress()
  const invoice = testInvoice(deployment, invoiceOverrides)
  const permit = await signTestPermit(owner, { deployment, vault, value: BigInt(invoice.amount), deadline })
  const server: PrepareTestPaymentParameters = {
    deployment,
    invoice,
    vault,
    owner: owner.address,
    vaultDeployed,
    permit,
    paymasterSigner: privateKeyToAccount(generatePrivateKey()),
  }
  const expected = { deployment, invoice: paymentInvoice(invoice, testFeeBps), vault, owner: owner.address, vaultDeployed, permit, entryPointNonce: 0n, now }
  /** Verifies what a server answers; `tamper` makes it a dishonest server that keeps its hash consistent. */
  async function verify(
    tamper?: PrepareTestPaymentParameters['tamper'],
    edit: (prepared: PrepareResponse) => PrepareResponse = (prepared) => prepared,
  ) {
    const prepared = edit(await prepareTestPayment(tamper ? { ...server, tamper } : server))
    return { prepared, result: verifyPreparedPayment({ ...expected, prepared }) }
  }
  /** A server that signs what it wants: a real paymaster signature over its own window, nonce, gas. */
  async function verifyServer(changes: Partial<PrepareTestPaymentParameters>, chain: Partial<typeof expected> = {}) {
    const prepared = await prepareTestPayment({ ...server, ...changes })
    return verifyPreparedPayment({ ...expected, ...chain, prepared })
  }
  return { deployment, owner, vault, invoice, permit, verify, verifyServer }
}

function codes(result: VerifyPreparedPaymentReturnType) {
  return result.ok ? [] : result.problems.map((problem) => problem.code)
}

function withCallData(callData: Hex) {
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => ({ ...userOp, callData })
}

/** A dishonest server rewrites the payment call before hashing the operation. */
function rewriting(change: (call: PayCall) => PayCall) {
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => ({ ...userOp, callData: encodePayCallData(change(decodePayCallData(userOp.callData))) })
}

/** SimpleAccount's execute(dest, value, func), which the old vault ran: it could call anything. */
const executeAbi = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'dest', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'func', type: 'bytes' },
    ],
    outputs: [],
  },
] as const

function withoutFields(...keys: (keyof UserOperation<'0.7'>)[]) {
  return (userOp: UserOperation<'0.7'>): UserOperation<'0.7'> => {
    const copy = { ...userOp }
    for (const key of keys) delete copy[key]
    return copy
  }
}

describe('verifyPreparedPayment', () => {
  test('default: accepts an honest operation for an undeployed vault', async () => {
    const { verify, vault } = await scenario()
    const { prepared, result } = await verify()
    expect(codes(result)).toEqual([])
    if (!result.ok) return
    expect(result.userOpHash).toBe(prepared.userOpHash)
    expect(result.userOp).toEqual({ ...fromWireUserOp(prepared.userOp), signature: '0x' })
    expect(result.userOp.sender).toBe(vault)
    expect(result.userOp.factory).toBeDefined()
  })

  test('default: accepts an honest operation for a deployed vault', async () => {
    const { verify } = await scenario({ vaultDeployed: true })
    const { result } = await verify()
    expect(codes(result)).toEqual([])
    expect(result.ok && result.userOp.factory).toBeUndefined()
  })

  test('behavior: never hands back the signature the server put on the operation', async () => {
    const { verify } = await scenario()
    const stub = `0x${'ff'.repeat(32)}${'7f'.repeat(32)}1c` as const
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, userOp: { ...prepared.userOp, signature: stub } }))
    expect(result.ok && result.userOp.signature).toBe('0x')
  })

  test('behavior: compares addresses whatever their casing', async () => {
    const { verify } = await scenario()
    const lower = (address: Address | undefined) => address?.toLowerCase() as Address
    const { result } = await verify(
      (userOp) => ({ ...userOp, sender: lower(userOp.sender), factory: lower(userOp.factory), paymaster: lower(userOp.paymaster) }),
      (prepared) => ({ ...prepared, userOpHash: prepared.userOpHash.toUpperCase().replace('0X', '0x') as Hex }),
    )
    expect(codes(result)).toEqual([])
  })

  test('behavior: refuses an operation that pays another invoice', async () => {
    const { verify } = await scenario()
    const { result } = await verify(rewriting((call) => ({ ...call, invoiceId: 7n })))
    expect(codes(result)).toEqual(['INVOICE_ID_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe('The operation pays invoice 7, not invoice 3.')
  })

  test('behavior: refuses an operation that names another invoice number than the one the registry holds', async () => {
    const { verify } = await scenario()
    const { result } = await verify(rewriting((call) => ({ ...call, invoiceNumber: 1043n })))
    expect(codes(result)).toEqual(['INVOICE_NUMBER_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation names the merchant's invoice number 1043, not 1042.`)
  })

  test.each([
    ['a higher', 150],
    ['a lower', 50],
    ['no', 0],
  ])('behavior: refuses an operation that names %s fee rate than the one the registry charges now', async (_, feeBps) => {
    const { verify } = await scenario()
    const { result } = await verify(rewriting((call) => ({ ...call, feeBps })))
    expect(codes(result)).toEqual(['FEE_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation names a fee of ${feeBps / 100} % to the merchant, not the 1 % the registry charges now.`)
  })

  test('behavior: refuses an operation prepared at another fee rate than the chain\'s now, though the server meant no harm', async () => {
    const { verifyServer, invoice } = await scenario()
    // the server read the fee before the registry changed it: the chain's rate now is what is held to
    expect(codes(await verifyServer({ feeBps: 250 }))).toEqual(['FEE_MISMATCH'])
    // the same operation, once the chain reads that rate too, is accepted
    expect(codes(await verifyServer({ feeBps: 250 }, { invoice: paymentInvoice(invoice, 250) }))).toEqual([])
  })

  test('behavior: refuses an operation that pays through a contract other than the registry', async () => {
    const { verify, deployment } = await scenario()
    const other = someAddress()
    const { result } = await verify(rewriting((call) => ({ ...call, registry: other })))
    expect(codes(result)).toEqual(['CALL_TARGET_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation pays through ${other}, not the invoice registry ${deployment.registry}.`)
  })

  test('behavior: refuses an operation that pays another merchant than the invoice\'s on-chain', async () => {
    const { verify, invoice } = await scenario()
    const other = someAddress()
    const { result } = await verify(rewriting((call) => ({ ...call, merchant: other })))
    expect(codes(result)).toEqual(['MERCHANT_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation pays ${other}, not the invoice's merchant ${invoice.merchant}.`)
  })

  test.each([
    ['more', 248_000_001n],
    ['less', 247_999_999n],
    ['nothing', 0n],
  ])('behavior: refuses an operation that pays %s than the invoice amount on-chain', async (_, amount) => {
    const { verify } = await scenario()
    const { result } = await verify(rewriting((call) => ({ ...call, amount })))
    expect(codes(result)).toEqual(['AMOUNT_MISMATCH'])
  })

  test('behavior: refuses an operation that pays in another token than the pinned one', async () => {
    const { verify, deployment } = await scenario()
    const other = someAddress()
    const { result } = await verify(rewriting((call) => ({ ...call, token: other })))
    expect(codes(result)).toEqual(['TOKEN_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation pays in token ${other}, not in this checkout's token ${deployment.token}.`)
  })

  test('behavior: refuses a call to execute, which could call anything, however the payment hides in it', async () => {
    const { verify, deployment } = await scenario()
    const { prepared } = await verify()
    const honest = fromWireUserOp(prepared.userOp).callData
    for (const callData of [
      encodeFunctionData({ abi: executeAbi, functionName: 'execute', args: [deployment.registry, 0n, honest] }),
      encodeFunctionData({ abi: executeAbi, functionName: 'execute', args: [deployment.token, 0n, '0x095ea7b3'] }),
    ]) {
      const { result } = await verify(withCallData(callData))
      expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
    }
  })

  test.each([
    ['v', (permit: PermitSignature) => ({ ...permit, v: permit.v === 27 ? 28 : 27 })],
    ['r', (permit: PermitSignature) => ({ ...permit, r: `0x${'12'.repeat(32)}` as const })],
    ['s', (permit: PermitSignature) => ({ ...permit, s: `0x${'34'.repeat(32)}` as const })],
    ['deadline', (permit: PermitSignature) => ({ ...permit, deadline: permit.deadline + 60n })],
  ])('behavior: refuses an operation whose permit %s differs from the one signed', async (_, change) => {
    const { verify } = await scenario()
    const { result } = await verify(rewriting((call) => ({ ...call, permit: change(call.permit) })))
    expect(codes(result)).toEqual(['PERMIT_MISMATCH'])
  })

  test('behavior: refuses an operation with bytes after the payment call', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, callData: concat([userOp.callData, '0xdeadbeef']) }))
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses a second payment appended to the first', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, callData: concat([userOp.callData, userOp.callData]) }))
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses a permit byte with dirty high bits', async () => {
    const { verify, permit } = await scenario()
    const dirtyV = (honest: Hex) => {
      const vWord = `${'00'.repeat(31)}${permit.v.toString(16)}`
      const dirty = honest.replace(vWord, `${'00'.repeat(30)}01${permit.v.toString(16)}`) as Hex
      expect(dirty).not.toBe(honest)
      return dirty
    }
    const { result } = await verify((userOp) => ({ ...userOp, callData: dirtyV(userOp.callData) }))
    // the decoder reads v as 283, which does not re-encode: refused before any field is compared
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses an address word with dirty high bits, though it decodes to the merchant', async () => {
    const { verify, invoice } = await scenario()
    const dirtyMerchant = (honest: Hex) => {
      const word = `${'00'.repeat(12)}${invoice.merchant.slice(2).toLowerCase()}`
      const dirty = honest.replace(word, `${'00'.repeat(11)}01${invoice.merchant.slice(2).toLowerCase()}`) as Hex
      expect(dirty).not.toBe(honest)
      return dirty
    }
    const { result } = await verify((userOp) => ({ ...userOp, callData: dirtyMerchant(userOp.callData) }))
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses a payment from the payer\'s wallet that the payer did not sign for', async () => {
    const { verify, permit } = await scenario()
    const { result } = await verify((userOp) => ({
      ...userOp,
      callData: encodeFundedPayCallData({ ...decodePayCallData(userOp.callData), funding: { amount: 1_000_000n, permit } }),
    }))
    expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
    expect(!result.ok && result.problems[0]?.message).toBe('The operation would also take funds from your wallet, which you did not allow.')
  })

  test('behavior: refuses a call to another function, or a truncated payment', async () => {
    const { verify } = await scenario()
    for (const edit of [(data: Hex) => `0x095ea7b3${data.slice(10)}` as Hex, (data: Hex) => data.slice(0, -64) as Hex, () => '0x' as Hex]) {
      const { result } = await verify((userOp) => ({ ...userOp, callData: edit(userOp.callData) }))
      expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
    }
  })

  test('behavior: refuses an operation sent by another account', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, sender: someAddress() }))
    expect(codes(result)).toEqual(['SENDER_MISMATCH'])
  })

  test('behavior: refuses to deploy a vault that already exists', async () => {
    const { verify, deployment, owner } = await scenario({ vaultDeployed: true })
    const { result } = await verify((userOp) => ({ ...userOp, factory: deployment.vaultFactory, factoryData: encodeCreateVault(owner.address) }))
    expect(codes(result)).toEqual(['FACTORY_UNEXPECTED'])
  })

  test('behavior: refuses an operation that does not deploy an undeployed vault', async () => {
    const { verify } = await scenario()
    const { result } = await verify(withoutFields('factory', 'factoryData'))
    expect(codes(result)).toEqual(['FACTORY_MISSING'])
  })

  test('behavior: refuses a vault created by another factory', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, factory: someAddress() }))
    expect(codes(result)).toEqual(['FACTORY_MISMATCH'])
  })

  test('behavior: refuses a vault created for another owner', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, factoryData: encodeCreateVault(someAddress()) }))
    expect(codes(result)).toEqual(['FACTORY_OWNER_MISMATCH'])
  })

  test('behavior: refuses a vault created at another salt', async () => {
    const { verify, owner } = await scenario()
    const factoryData = encodeFunctionData({ abi: vaultFactoryAbi, functionName: 'createAccount', args: [owner.address, 1n] })
    const { result } = await verify((userOp) => ({ ...userOp, factoryData }))
    expect(codes(result)).toEqual(['FACTORY_DATA_MISMATCH'])
  })

  test('behavior: refuses an operation sponsored by another paymaster', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, paymaster: someAddress() }))
    expect(codes(result)).toEqual(['PAYMASTER_MISMATCH'])
  })

  test('behavior: refuses an unsponsored operation', async () => {
    const { verify } = await scenario()
    const { result } = await verify(
      withoutFields('paymaster', 'paymasterData', 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit'),
    )
    expect(codes(result)).toEqual(['PAYMASTER_MISSING'])
  })

  test('behavior: refuses a sponsorship that never expires (validUntil 0), however validly signed', async () => {
    const { verifyServer } = await scenario()
    expect(codes(await verifyServer({ sponsorship: { validUntil: 0, validAfter: 0 } }))).toEqual(['SPONSORSHIP_UNBOUNDED'])
  })

  test('behavior: refuses a sponsorship that outlives the permit by a second', async () => {
    const { verifyServer } = await scenario()
    const result = await verifyServer({ sponsorship: { validUntil: Number(deadline) + 1, validAfter: 0 } })
    expect(codes(result)).toEqual(['SPONSORSHIP_OUTLIVES_PERMIT'])
  })

  test('behavior: refuses a sponsorship that only starts in the future', async () => {
    const { verifyServer } = await scenario()
    const result = await verifyServer({ sponsorship: { validUntil: Number(deadline), validAfter: now / 1000 + 60 } })
    expect(codes(result)).toEqual(['SPONSORSHIP_NOT_YET_VALID'])
  })

  test('behavior: hands back the sponsorship window as the operation\'s real validity', async () => {
    const { verifyServer } = await scenario()
    const result = await verifyServer({ sponsorship: { validUntil: Number(deadline) - 600, validAfter: now / 1000 - 5 } })
    expect(result.ok && result.window).toEqual({ validUntil: Number(deadline) - 600, validAfter: now / 1000 - 5 })
  })

  test.each([
    ['with nothing after the window', (data: Hex) => data.slice(0, 2 + 128) as Hex],
    ['with a 66-byte signature', (data: Hex) => concat([data, '0x00'])],
    ['with a window word wider than uint48', (data: Hex) => `0x01${data.slice(4)}` as Hex],
  ])('behavior: refuses paymaster data %s, even with a matching hash', async (_, edit) => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, paymasterData: edit(userOp.paymasterData ?? '0x') }))
    expect(codes(result)).toEqual(['PAYMASTER_DATA_MALFORMED'])
  })

  test('behavior: refuses an operation on another nonce key, so no second operation can run beside it', async () => {
    const { verifyServer } = await scenario()
    expect(codes(await verifyServer({ nonce: (7n << 64n) + 0n }))).toEqual(['NONCE_KEY_NONZERO'])
  })

  test('behavior: refuses a nonce other than the vault\'s next one on-chain', async () => {
    const { verifyServer } = await scenario()
    expect(codes(await verifyServer({ nonce: 5n }))).toEqual(['NONCE_MISMATCH'])
    expect(codes(await verifyServer({ nonce: 5n }, { entryPointNonce: 5n }))).toEqual([])
  })

  test.each(['callGasLimit', 'verificationGasLimit', 'preVerificationGas', 'paymasterVerificationGasLimit', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const)(
    'behavior: refuses %s above the limit the build states',
    async (field) => {
      const { verify, deployment } = await scenario()
      const { result } = await verify((userOp) => ({ ...userOp, [field]: BigInt(deployment.userOpLimits[field]) + 1n, maxFeePerGas: field === 'maxFeePerGas' || field === 'maxPriorityFeePerGas' ? BigInt(deployment.userOpLimits.maxFeePerGas) + 1n : userOp.maxFeePerGas }))
      expect(codes(result)).toEqual(['GAS_ABOVE_LIMIT'])
      expect(!result.ok && result.problems[0]!.fields).toContain(field)
    },
  )

  test('behavior: refuses a priority fee above the fee cap', async () => {
    const { verify } = await scenario()
    const { result } = await verify((userOp) => ({ ...userOp, maxPriorityFeePerGas: userOp.maxFeePerGas + 1n }))
    expect(codes(result)).toEqual(['GAS_ABOVE_LIMIT'])
  })

  test('behavior: refuses paymaster data changed after hashing', async () => {
    const { verify } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({
      ...prepared,
      userOp: { ...prepared.userOp, paymasterData: concat([prepared.userOp.paymasterData ?? '0x', '0x00']) },
    }))
    expect(codes(result)).toEqual(['USEROP_HASH_MISMATCH', 'PAYMASTER_DATA_MALFORMED'])
  })

  test.each(['callGasLimit', 'verificationGasLimit', 'preVerificationGas', 'maxFeePerGas', 'paymasterPostOpGasLimit'] as const)(
    'behavior: refuses %s changed after hashing',
    async (field) => {
      const { verify } = await scenario()
      const { result } = await verify(undefined, (prepared) => ({ ...prepared, userOp: { ...prepared.userOp, [field]: String(BigInt(prepared.userOp[field] ?? 0) + 1n) } }))
      expect(codes(result)).toEqual(['USEROP_HASH_MISMATCH'])
    },
  )

  test('behavior: refuses a gas field too wide to pack instead of throwing', async () => {
    const { verify } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, userOp: { ...prepared.userOp, callGasLimit: (2n ** 128n).toString() } }))
    expect(codes(result)).toEqual(['USEROP_HASH_MISMATCH', 'GAS_ABOVE_LIMIT'])
  })

  test.each([
    ['another chain', { chainId: 1 }],
    ['another EntryPoint', { entryPointAddress: entryPoint06Address }],
  ] as const)('behavior: refuses a userOpHash computed for %s', async (_, other) => {
    const { verify, deployment } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({
      ...prepared,
      userOpHash: getUserOperationHash({
        chainId: deployment.chainId,
        entryPointAddress: deployment.entryPoint,
        ...other,
        entryPointVersion: '0.7',
        userOperation: fromWireUserOp(prepared.userOp),
      }),
    }))
    expect(codes(result)).toEqual(['USEROP_HASH_MISMATCH'])
  })

  test('behavior: refuses a prepared payment that outlives its permit', async () => {
    const { verify } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({
      ...prepared,
      expiresAt: new Date((Number(deadline) + 1) * 1000).toISOString(),
    }))
    expect(codes(result)).toEqual(['EXPIRY_AFTER_PERMIT'])
  })

  test('behavior: refuses a permit deadline other than the one signed', async () => {
    const { verify } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, permitDeadline: String(Number(prepared.permitDeadline) - 60) }))
    expect(codes(result)).toEqual(['PERMIT_DEADLINE_MISMATCH'])
  })

  test('behavior: refuses a response about another invoice', async () => {
    const { verify, invoice } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, invoice: { ...invoice, id: '4' } }))
    expect(codes(result)).toEqual(['RESPONSE_INVOICE_MISMATCH'])
  })

  test('behavior: refuses a response with another invoice amount', async () => {
    const { verify, invoice } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, invoice: { ...invoice, amount: '248000001' } }))
    expect(codes(result)).toEqual(['AMOUNT_MISMATCH'])
  })

  test('behavior: refuses a response with another merchant', async () => {
    const { verify, invoice } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, invoice: { ...invoice, merchant: someAddress() } }))
    expect(codes(result)).toEqual(['MERCHANT_MISMATCH'])
  })

  test('behavior: refuses a response with another invoice token', async () => {
    const { verify, invoice } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({
      ...prepared,
      invoice: { ...invoice, token: { ...invoice.token, address: someAddress() } },
    }))
    expect(codes(result)).toEqual(['TOKEN_MISMATCH'])
  })

  test('behavior: refuses to pay an invoice in a token the build does not accept', async () => {
    const { verify } = await scenario({ invoice: { token: { address: someAddress(), symbol: 'USDC', decimals: 6 } } })
    const { result } = await verify()
    expect(codes(result)).toEqual(['TOKEN_NOT_ACCEPTED'])
  })

  test('behavior: reports every problem at once', async () => {
    const { verify } = await scenario()
    const { result } = await verify(
      (userOp) => ({
        ...rewriting((call) => ({ ...call, registry: someAddress(), invoiceId: 7n, invoiceNumber: 7n, feeBps: 0, amount: 1n }))(userOp),
        sender: someAddress(),
        paymaster: someAddress(),
      }),
      (prepared) => ({ ...prepared, userOpHash: `0x${'00'.repeat(32)}` }),
    )
    expect(codes(result)).toEqual([
      'USEROP_HASH_MISMATCH',
      'SENDER_MISMATCH',
      'CALL_TARGET_MISMATCH',
      'INVOICE_ID_MISMATCH',
      'INVOICE_NUMBER_MISMATCH',
      'FEE_MISMATCH',
      'AMOUNT_MISMATCH',
      'PAYMASTER_MISMATCH',
    ])
    expect(!result.ok && result.problems.every((problem) => problem.message.length > 0)).toBe(true)
  })

  test('behavior: names addresses in the payer-facing message', async () => {
    const { verify, vault } = await scenario()
    const intruder = someAddress()
    const { result } = await verify((userOp) => ({ ...userOp, sender: intruder.toLowerCase() as Address }))
    expect(!result.ok && result.problems[0]?.message).toBe(`The operation is sent by ${intruder.toLowerCase()}, not by your vault ${getAddress(vault)}.`)
  })
})

describe('the Payment message of a verified payment', () => {
  test('behavior: names exactly the invoice the chain holds, the vault, the permit\'s deadline and the hash computed here', async () => {
    const { verify, deployment, invoice, owner, vault, permit } = await scenario()
    const { prepared, result } = await verify()
    expect(codes(result)).toEqual([])
    if (!result.ok) return
    const onchain = testOnchainInvoice(invoice)
    const recomputed = getUserOperationHash({
      chainId: deployment.chainId,
      entryPointAddress: deployment.entryPoint,
      entryPointVersion: '0.7',
      userOperation: { ...fromWireUserOp(prepared.userOp), signature: '0x' },
    })
    expect(result.payment).toEqual({
      registry: getAddress(deployment.registry),
      invoice: 3n,
      invoiceNumber: onchain.invoiceNumber,
      merchant: getAddress(onchain.merchant),
      token: getAddress(onchain.token),
      amount: onchain.amount,
      feeBps: testFeeBps,
      fromWallet: 0n,
      vault: getAddress(vault),
      validUntil: permit.deadline,
      operation: recomputed,
    })
    expect(result.payment.token).toBe(getAddress(deployment.token))
    expect(result.call).toEqual(decodePayCallData(fromWireUserOp(prepared.userOp).callData))
    // what the wallet is asked to sign recovers to the owner over the vault's own domain
    const typedData = paymentTypedData(deployment.chainId, result.payment)
    expect(typedData.domain).toEqual({ name: 'svc-checkout vault', version: '3', chainId: deployment.chainId, verifyingContract: getAddress(vault) })
    const signature = await owner.signTypedData(typedData)
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(owner.address)
  })

  test('behavior: takes the figures from the chain\'s invoice, not from the server\'s answer around the operation', async () => {
    const { verify, invoice } = await scenario()
    const merchant = someAddress()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, invoice: { ...invoice, merchant, amount: '1' } }))
    // the answer's own invoice is refused; nothing from it reaches a message
    expect(codes(result)).toEqual(['AMOUNT_MISMATCH', 'MERCHANT_MISMATCH'])
  })

  test('behavior: an operation whose hash the server misstates yields no message at all', async () => {
    const { verify } = await scenario()
    const { result } = await verify(undefined, (prepared) => ({ ...prepared, userOpHash: `0x${'00'.repeat(32)}` }))
    expect(result.ok).toBe(false)
    expect('payment' in result).toBe(false)
  })

  test('behavior: a verifier given the registry\'s record directly builds the same message', async () => {
    const { deployment, invoice, verify } = await scenario()
    const { prepared, result } = await verify()
    const onchain = testOnchainInvoice(invoice)
    expect(onchainPaymentInvoice(3n, onchain, testFeeBps)).toEqual(paymentInvoice(invoice, testFeeBps))
    expect(result.ok && result.payment.operation).toBe(prepared.userOpHash)
    expect(result.ok && result.payment.token).toBe(deployment.token)
  })
})
