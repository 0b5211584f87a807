import { concat, encodeFunctionData, getAddress, type Address, type Hex } from 'viem'
import { entryPoint06Address, getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  encodeCreateVault,
  encodePayCallData,
  registryPayAbi,
  vaultExecuteAbi,
  vaultFactoryAbi,
  type PermitSignature,
} from '../../shared/payCall'
import { vaultExecuteBatchAbi } from '../../shared/fundedPayCall'
import { type WireInvoice } from '../../shared/wire'
import { fromWireUserOp } from '../../shared/userOpWire'
import { paymentInvoice } from './paymentInvoice'
import { prepareTestPayment, signTestPermit, testDeployment, testInvoice, type PrepareTestPaymentParameters } from './preparedPayment.fixture'
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
  const expected = { deployment, invoice: paymentInvoice(invoice), vault, owner: owner.address, vaultDeployed, permit, entryPointNonce: 0n, now }
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
    const { verify, deployment, permit } = await scenario()
    const { result } = await verify(withCallData(encodePayCallData({ registry: deployment.registry, invoiceId: 7n, permit })))
    expect(codes(result)).toEqual(['INVOICE_ID_MISMATCH'])
    expect(!result.ok && result.problems[0]?.message).toBe('The operation pays invoice 7, not invoice 3.')
  })

  test('behavior: refuses an operation that calls a contract other than the registry', async () => {
    const { verify, permit } = await scenario()
    const { result } = await verify(withCallData(encodePayCallData({ registry: someAddress(), invoiceId: 3n, permit })))
    expect(codes(result)).toEqual(['CALL_TARGET_MISMATCH'])
  })

  test('behavior: refuses an operation that also sends native currency', async () => {
    const { verify, deployment, permit } = await scenario()
    const pay = encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [3n, permit.deadline, permit.v, permit.r, permit.s] })
    const callData = encodeFunctionData({ abi: vaultExecuteAbi, functionName: 'execute', args: [deployment.registry, 1n, pay] })
    const { result } = await verify(withCallData(callData))
    expect(codes(result)).toEqual(['CALL_VALUE_NONZERO'])
  })

  test.each([
    ['v', (permit: PermitSignature) => ({ ...permit, v: permit.v === 27 ? 28 : 27 })],
    ['r', (permit: PermitSignature) => ({ ...permit, r: `0x${'12'.repeat(32)}` as const })],
    ['s', (permit: PermitSignature) => ({ ...permit, s: `0x${'34'.repeat(32)}` as const })],
    ['deadline', (permit: PermitSignature) => ({ ...permit, deadline: permit.deadline + 60n })],
  ])('behavior: refuses an operation whose permit %s differs from the one signed', async (_, change) => {
    const { verify, deployment, permit } = await scenario()
    const { result } = await verify(withCallData(encodePayCallData({ registry: deployment.registry, invoiceId: 3n, permit: change(permit) })))
    expect(codes(result)).toEqual(['PERMIT_MISMATCH'])
  })

  test('behavior: refuses an operation with bytes after the payment call', async () => {
    const { verify, deployment, permit } = await scenario()
    const callData = concat([encodePayCallData({ registry: deployment.registry, invoiceId: 3n, permit }), '0xdeadbeef'])
    const { result } = await verify(withCallData(callData))
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses an operation with bytes hidden after the inner pay call', async () => {
    const { verify, deployment, permit } = await scenario()
    const pay = encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [3n, permit.deadline, permit.v, permit.r, permit.s] })
    const callData = encodeFunctionData({
      abi: vaultExecuteAbi,
      functionName: 'execute',
      args: [deployment.registry, 0n, concat([pay, `0x${'00'.repeat(31)}01`])],
    })
    const { result } = await verify(withCallData(callData))
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL'])
  })

  test('behavior: refuses a permit byte with dirty high bits', async () => {
    const { verify, deployment, permit } = await scenario()
    const honest = encodePayCallData({ registry: deployment.registry, invoiceId: 3n, permit })
    const vWord = `${'00'.repeat(31)}${permit.v.toString(16)}`
    const dirty = honest.replace(vWord, `${'00'.repeat(30)}01${permit.v.toString(16)}`) as Hex
    expect(dirty).not.toBe(honest)
    const { result } = await verify(withCallData(dirty))
    // the decoder reads v as 283: the re-encoding refuses it, and it is not the v the payer signed
    expect(codes(result)).toEqual(['CALLDATA_NOT_CANONICAL', 'PERMIT_MISMATCH'])
  })

  test('behavior: refuses executeBatch instead of execute', async () => {
    const { verify, deployment, permit } = await scenario()
    const pay = encodeFunctionData({ abi: registryPayAbi, functionName: 'pay', args: [3n, permit.deadline, permit.v, permit.r, permit.s] })
    const callData = encodeFunctionData({ abi: vaultExecuteBatchAbi, functionName: 'executeBatch', args: [[deployment.registry], [0n], [pay]] })
    const { result } = await verify(withCallData(callData))
    expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
  })

  test('behavior: refuses an operation whose inner call is not pay', async () => {
    const { verify, deployment } = await scenario()
    const callData = encodeFunctionData({ abi: vaultExecuteAbi, functionName: 'execute', args: [deployment.registry, 0n, '0x095ea7b3'] })
    const { result } = await verify(withCallData(callData))
    expect(codes(result)).toEqual(['CALLDATA_UNDECODABLE'])
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
    const { verify, permit } = await scenario()
    const { result } = await verify(
      (userOp) => ({
        ...userOp,
        sender: someAddress(),
        paymaster: someAddress(),
        callData: encodePayCallData({ registry: someAddress(), invoiceId: 7n, permit }),
      }),
      (prepared) => ({ ...prepared, userOpHash: `0x${'00'.repeat(32)}` }),
    )
    expect(codes(result)).toEqual([
      'USEROP_HASH_MISMATCH',
      'SENDER_MISMATCH',
      'CALL_TARGET_MISMATCH',
      'INVOICE_ID_MISMATCH',
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
