import { isAddressEqual, recoverTypedDataAddress, size, slice, type Address, type Hex } from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import { merchantVaultTypedData } from '../../../shared/merchantVaultMessage'
import { deploymentCall, isDeploymentCallData, readCreateVaultFactoryData } from '../../../shared/merchantVaultDeployment'
import { vaultFactoryAbi } from '../../../shared/vaultFactoryAbi'
import { fromWireUserOp, toWireUserOp, type WireUserOp } from '../../../shared/userOpWire'
import { referencePreVerificationGas } from '../../chain/referencePreVerificationGas'
import { HttpError } from '../../http/httpError'
import { typedDataToSignOf } from '../signer/ownerOperation'
import { ownerSignatureBytes, ownerValidationGas, withMargin } from '../signer/prepareOwnerOperation'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'

/** A transfer of nothing by the new vault: well above what anvil measures for the stablecoin. The
 * owner's validation is prepareOwnerOperation's, on top of what creating and initializing the clone costs. */
const deploymentCallGas = 100_000n

/** What a deployment operation was read as: whose vault, where, and created how. */
export type DeploymentOperation = { userOp: UserOperation<'0.7'>; vault: Address; owner: Address; salt: bigint }

const mismatch = (message: string) => new HttpError(400, 'USEROP_CALL_MISMATCH', message)

/** The deployment's factory: a deployment without one provisions no vaults. */
function factoryOf(signing: SessionSignerDependencies): Address {
  const factory = signing.deployment.merchantVaultFactory
  if (!factory) throw new HttpError(503, 'VAULT_FACTORY_UNAVAILABLE', 'this deployment has no merchant vault factory: studios cannot be provisioned here')
  return factory
}

/**
 * Reads a deployment operation as a wallet sent it, refusing anything else before a sponsorship or
 * a send: the stated chain must be the deployment's; initCode this deployment's MerchantVaultFactory's
 * createAccount(owner, salt), exactly encoded; the sender the factory's address for that owner and salt
 * (read from the factory, so nobody deploys into another owner's address); the first nonce of the
 * owner's key; and the call the vault's no-op withdrawal to that same owner, nothing else.
 */
export async function readDeploymentOperation(signing: SessionSignerDependencies, chainId: number, wire: WireUserOp): Promise<DeploymentOperation> {
  const { deployment, client } = signing
  if (chainId !== deployment.chainId) {
    throw new HttpError(400, 'CHAIN_NOT_SUPPORTED', `this deployment provisions vaults on chain ${deployment.chainId}, not ${chainId}`, { supportedChainIds: [deployment.chainId] })
  }
  const factory = factoryOf(signing)
  const userOp = fromWireUserOp(wire)
  if (!userOp.factory || !isAddressEqual(userOp.factory, factory) || !userOp.factoryData) {
    throw mismatch(`the operation does not create a vault through this deployment's vault factory (${factory}): set factory and factoryData to its createAccount(owner, salt)`)
  }
  const created = readCreateVaultFactoryData(userOp.factoryData)
  if (!created) throw mismatch("factoryData is not the vault factory's createAccount(owner, salt), exactly encoded")
  const vault = await client.readContract({ address: factory, abi: vaultFactoryAbi, functionName: 'getAddress', args: [created.owner, created.salt] })
  if (!isAddressEqual(userOp.sender, vault)) {
    throw new HttpError(400, 'VAULT_ADDRESS_MISMATCH', `the sender is not the vault the factory makes for owner ${created.owner}: that vault is ${vault}`, { vaultAddress: vault })
  }
  if (userOp.nonce !== 0n) throw mismatch("a vault's deployment is its first operation under its owner's key: nonce 0")
  if (!isDeploymentCallData(userOp.callData, deployment.token, created.owner)) {
    throw mismatch("the deployment's call must be the vault's withdrawal of 0 of the deployment's token to its owner: the vault validates only its owner's typed operations, and that one moves nothing")
  }
  return { userOp, vault, owner: created.owner, salt: created.salt }
}

/** Refuses a vault that is already deployed: its deployment was done, by this studio or another. */
export async function assertNotDeployed(signing: SessionSignerDependencies, vault: Address): Promise<void> {
  const code = await signing.client.getCode({ address: vault })
  if (code !== undefined && code !== '0x') throw new HttpError(409, 'VAULT_ALREADY_DEPLOYED', `the vault at ${vault} is already deployed`, { vaultAddress: vault })
}

/** The owner's typed message for the deployment, integers as decimal strings (eth_signTypedData_v4). */
function typedDataToSign(chainId: number, operation: DeploymentOperation, token: Address, validUntil: number, userOpHash: Hex) {
  return typedDataToSignOf('Withdrawal', merchantVaultTypedData({ chainId, vault: operation.vault, call: deploymentCall(token, operation.owner), validUntil: BigInt(validUntil), operation: userOpHash }))
}

/**
 * The deployment made final but for its signature, for the owner's wallet: gas from the chain (the
 * factory's createAccount estimated, the owner's validation on top), sponsored by our paymaster, and
 * the typed message bound to the operation's hash and to the window the sponsorship is good for.
 * The caller has counted the prepare against the user: there is no studio yet to count it against.
 * `windowCutSeconds` ends the window that many seconds sooner: another operation than one prepared
 * for someone else in the same second.
 */
export async function prepareDeployment(signing: SessionSignerDependencies, operation: DeploymentOperation, { windowCutSeconds = 0 }: { windowCutSeconds?: number } = {}) {
  const { client, deployment, sponsor } = signing
  const [fees, createGas] = await Promise.all([
    client.estimateFeesPerGas(),
    client.estimateGas({ account: deployment.entryPoint, to: operation.userOp.factory!, data: operation.userOp.factoryData! }),
  ])
  let userOp: UserOperation<'0.7'> = {
    sender: operation.vault,
    nonce: 0n,
    factory: operation.userOp.factory!,
    factoryData: operation.userOp.factoryData!,
    callData: operation.userOp.callData,
    callGasLimit: deploymentCallGas,
    verificationGasLimit: ownerValidationGas + withMargin(createGas),
    preVerificationGas: 0n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    signature: '0x',
  }
  const validUntil = Math.floor(signing.now() / 1000) + signing.sponsorshipWindowSeconds - windowCutSeconds
  userOp = { ...userOp, ...(await sponsor.stub(userOp, { validUntil })) }
  userOp.preVerificationGas = referencePreVerificationGas({ version: '0.7', userOp }, ownerSignatureBytes)
  const { validUntil: _signed, ...sponsorship } = await sponsor.sign(userOp, { validUntil })
  userOp = { ...userOp, ...sponsorship }
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  const wire = toWireUserOp(userOp)
  return {
    sponsorship: {
      paymaster: wire.paymaster!,
      paymasterData: wire.paymasterData!,
      paymasterVerificationGasLimit: wire.paymasterVerificationGasLimit!,
      paymasterPostOpGasLimit: wire.paymasterPostOpGasLimit!,
      callGasLimit: wire.callGasLimit,
      verificationGasLimit: wire.verificationGasLimit,
      preVerificationGas: wire.preVerificationGas,
      maxFeePerGas: wire.maxFeePerGas,
      maxPriorityFeePerGas: wire.maxPriorityFeePerGas,
    },
    userOp: wire,
    userOpHash,
    validUntil,
    expiresAt: new Date(validUntil * 1000).toISOString(),
    typedDataToSign: typedDataToSign(deployment.chainId, operation, deployment.token, validUntil, userOpHash),
  }
}

/**
 * The signed deployment's hash and the end of its signature, once the signature is the owner's own
 * over the typed message for this very operation: checked here, so a wrong key or a bare hash is a
 * clear 400 rather than the bundler's refusal. The vault checks it again when it is deployed.
 */
export async function verifyDeploymentSignature(signing: SessionSignerDependencies, operation: DeploymentOperation): Promise<{ userOpHash: Hex; validUntil: number }> {
  const { deployment } = signing
  const { userOp } = operation
  const userOpHash = getUserOperationHash({ userOperation: userOp, chainId: deployment.chainId, entryPointAddress: deployment.entryPoint, entryPointVersion: '0.7' })
  const invalid = (message: string) => new HttpError(400, 'OWNER_SIGNATURE_INVALID', message)
  if (!userOp.paymaster || !isAddressEqual(userOp.paymaster, deployment.paymaster)) {
    throw new HttpError(400, 'SPONSORSHIP_REQUIRED', 'the deployment is sponsored by this deployment\'s paymaster: POST /v1/studios/prepare and keep its paymaster and gas fields before signing')
  }
  if (size(userOp.signature) !== ownerSignatureBytes) {
    throw invalid("the signature is not the vault's: the typed message's end (6 bytes) then the owner's 65-byte signature of the typed data prepare returned (a bare hash is never accepted)")
  }
  const validUntil = Number(BigInt(slice(userOp.signature, 0, 6)))
  if (validUntil === 0) throw invalid("the signature's end (its first 6 bytes) is 0")
  if (validUntil < Math.floor(signing.now() / 1000)) throw new HttpError(409, 'SIGNATURE_EXPIRED', 'the signed deployment has expired: prepare it again and sign the new one')
  const typed = merchantVaultTypedData({ chainId: deployment.chainId, vault: operation.vault, call: deploymentCall(deployment.token, operation.owner), validUntil: BigInt(validUntil), operation: userOpHash })
  const signer = await recoverTypedDataAddress({ ...typed, signature: slice(userOp.signature, 6) }).catch(() => null)
  if (!signer || !isAddressEqual(signer, operation.owner)) {
    throw invalid(`the signature is not the owner's (${operation.owner}) over this operation's typed message: sign the typedDataToSign prepare returned, with the paymaster and gas fields unchanged`)
  }
  return { userOpHash, validUntil }
}
