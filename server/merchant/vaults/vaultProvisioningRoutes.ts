import type { Context } from 'hono'
import { isAddressEqual, type Hex } from 'viem'
import { BundlerRejectedError } from '../../chain/bundler'
import { AuthenticationError, ForbiddenError } from '../../auth/authErrors'
import type { IdentityVerifier } from '../../auth/jwtVerifier'
import { oauthAccessTokenPrefix } from '../../auth/oauthTokenPrefix'
import { partOf, perClientLimit } from '../../http/perClientLimit'
import { HttpError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import type { Studio } from '../../store/studioStore'
import { signedInIdentity } from '../accounts/signedInIdentity'
import type { User, UserStore } from '../accounts/userStore'
import type { SessionSignerDependencies } from '../signer/sendSessionCall'
import { followOwnerOperation, sendOwnerOperation } from '../signer/sendOwnerOperation'
import { studioOf, type StudioRoutesDependencies } from '../studios/studioRoutes'
import { assertNotDeployed, prepareDeployment, readDeploymentOperation, verifyDeploymentSignature, type DeploymentOperation } from './vaultDeploymentOperation'
import { StudioExistsError, type VaultDeploymentStore } from './vaultDeploymentStore'
import { legacyStudioResponseSchema, prepareVaultRequestSchema, prepareVaultResponseSchema, submitVaultRequestSchema, submitVaultResponseSchema } from './vaultProvisioningWire'

export type VaultProvisioningDependencies = {
  identity: IdentityVerifier | null
  users: Pick<UserStore, 'findUser'>
  deployments: VaultDeploymentStore
  signing: SessionSignerDependencies
  /** How many deployments a user may have our paymaster sponsor a UTC day (MERCHANT_DAILY_OPERATION_QUOTA). */
  preparesPerDay: number
}

/** Absent only where no request reaches the routes (a document of them). */
export type VaultProvisioningRoutesDependencies = StudioRoutesDependencies & { vaultProvisioning?: VaultProvisioningDependencies }

function provisioningOf(dependencies: VaultProvisioningRoutesDependencies): VaultProvisioningDependencies {
  if (!dependencies.vaultProvisioning) throw new Error('the vault provisioning routes are mounted without their dependencies')
  return dependencies.vaultProvisioning
}

/**
 * The signed-in user who provisions: the identity provider's token only (SPEC 5.6 lists no API key
 * and no OAuth for 4.3). Authenticated here, as sign-in is, since the user has no studio yet. A CLI's
 * or an agent's OAuth token is refused before it is even looked up: a grant is for a studio that
 * exists, and a studio's vault is its owner's own doing in the dashboard.
 */
async function provisioningUser(c: Context, provisioning: VaultProvisioningDependencies): Promise<User> {
  const bearer = /^Bearer +(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
  if (bearer?.startsWith(oauthAccessTokenPrefix) && c.req.header('x-svc-key') === undefined) {
    throw new ForbiddenError("OAuth tokens cannot provision a studio (SPEC 5.6): its owner signs in with the identity provider and signs the deployment in their own wallet")
  }
  const identity = await signedInIdentity(c, provisioning.identity)
  const user = await provisioning.users.findUser(identity.issuer, identity.subject)
  if (!user) throw new AuthenticationError('UNAUTHORIZED', 'this user has not signed in to this deployment yet: POST /v1/auth/login first')
  return user
}

type Submitted = { studio: Studio; operation: DeploymentOperation; userOpHash: Hex; status: 'deployed' | 'pending'; txHash?: Hex }

/**
 * Sends the owner's signed deployment and follows it until its receipt or SUBMIT_WAIT_MS. The same
 * signed operation sent again while it is on its way is followed, not sent twice; once the vault has
 * code its studio is deployed, and the operation that deployed it is answered again.
 */
async function submitDeployment(provisioning: VaultProvisioningDependencies, user: User, body: { name?: string | null | undefined; chainId: number; userOp: Parameters<typeof readDeploymentOperation>[2] }): Promise<Submitted> {
  const { signing, deployments } = provisioning
  const operation = await readDeploymentOperation(signing, body.chainId, body.userOp)
  const { userOpHash, validUntil } = await verifyDeploymentSignature(signing, operation)
  // the owner has signed, and this user asked for this very operation: the vault is now theirs to claim
  await deployments.assertPreparedBy(user.id, userOpHash)
  const studio = await deployments.studioFor(user.id, body.name ?? null, { chainId: body.chainId, vault: operation.vault, owner: operation.owner, salt: operation.salt })
  const record = await deployments.findByStudio(studio.id)
  const sameOperation = record?.userOpHash === userOpHash.toLowerCase()
  if (record?.status === 'deployed' && sameOperation) {
    return { studio, operation, userOpHash, status: 'deployed', ...(record.txHash ? { txHash: record.txHash } : {}) }
  }
  await assertNotDeployed(signing, operation.vault)
  const rows = {
    confirmed: (studioId: string, txHash: Hex) => deployments.deployed(studioId, txHash),
    failed: (studioId: string, failure: string, txHash?: Hex) => deployments.failed(studioId, failure, txHash),
  }
  let outcome
  if (record?.status === 'pending' && sameOperation) outcome = await followOwnerOperation(signing, rows, studio.id, userOpHash)
  else {
    // one of the studio's sponsored operations of the day and the month, given back if the bundler refuses it
    await signing.quota.reserve(studio.id)
    try {
      const sentAtBlock = await signing.client.getBlockNumber({ cacheTime: 0 })
      await deployments.sent(studio.id, { userOpHash, validUntil, sentAtBlock })
      outcome = await sendOwnerOperation(signing, rows, studio.id, operation.userOp, userOpHash)
    } catch (error) {
      if (error instanceof BundlerRejectedError) await signing.quota.release(studio.id)
      throw error
    }
  }
  return { studio, operation, userOpHash, status: outcome.status === 'confirmed' ? 'deployed' : 'pending', ...(outcome.status === 'confirmed' ? { txHash: outcome.txHash } : {}) }
}

/** Tries for an operation no other user holds: each try's window ends a second sooner. */
const distinctOperationTries = 5

/**
 * The sponsored deployment, bound to this user alone. A known owner's deployment is the same
 * operation for anyone who prepares it in the same second; were it bound to two users, a watcher who
 * prepared it beside the owner could submit the owner's signature as their own. A window one second
 * shorter makes it another operation.
 */
async function preparedForUser(provisioning: VaultProvisioningDependencies, user: User, operation: DeploymentOperation) {
  for (let windowCutSeconds = 0; windowCutSeconds < distinctOperationTries; windowCutSeconds++) {
    const prepared = await prepareDeployment(provisioning.signing, operation, { windowCutSeconds })
    if (await provisioning.deployments.operationPrepared(user.id, prepared.userOpHash, prepared.validUntil)) return prepared
  }
  throw new HttpError(503, 'PAYMASTER_UNAVAILABLE', 'the deployment could not be prepared for you alone just now: prepare it again in a few seconds', {}, { 'Retry-After': '5' })
}

const pendingMessage = 'The deployment was sent and is not on-chain yet: the studio reads vaultDeploymentStatus pending until it is. Submit the same signed operation again to follow it.'

/** A prepare estimates gas and asks our paymaster to sign, as the pay flow's prepare does. */
const provisioningLimit = perClientLimit('provisioning', (settings) => settings.preparePerMinute ?? partOf(settings, 10))

const provisioningRoute = apiRoute<VaultProvisioningRoutesDependencies>()
const policy = { auth: 'none', cors: 'none', rateLimits: [provisioningLimit], signedInOnly: true } as const
const authErrors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH', 'AUTH_UNAVAILABLE'] as const
const operationErrors = ['CHAIN_NOT_SUPPORTED', 'USEROP_CALL_MISMATCH', 'VAULT_ADDRESS_MISMATCH', 'VAULT_ALREADY_DEPLOYED', 'STUDIO_EXISTS', 'STUDIO_VAULT_TAKEN', 'VAULT_FACTORY_UNAVAILABLE'] as const
const submitErrors = [...authErrors, ...operationErrors, 'QUOTA_EXCEEDED', 'OWNER_SIGNATURE_INVALID', 'SPONSORSHIP_REQUIRED', 'SIGNATURE_EXPIRED', 'TRANSACTION_FAILED', 'BUNDLER_UNAVAILABLE'] as const
const noStore = { 'Cache-Control': 'no-store' }

/**
 * SPEC 4.3: a studio comes into being through its owner's wallet. The wallet builds the vault's
 * deployment (shared/merchantVaultDeployment.ts), prepare checks it and sponsors it, the owner signs
 * its typed message, and submit checks the signature, makes the studio with the user as its owner,
 * and sends it: the studio reads vaultDeploymentStatus pending, then deployed.
 */
export const vaultProvisioningRoutes = [
  provisioningRoute({
    method: 'post',
    path: '/v1/studios/prepare',
    summary: "Prepare the studio vault's deployment for its owner's wallet to sign",
    description:
      "Signed-in user only (the identity provider's bearer token). The userOp is the vault's unsigned deployment: the MerchantVaultFactory's createAccount(owner, salt) as factory and factoryData, sender the factory's address for that owner and salt, nonce 0, and as its call the vault's withdrawal of 0 of the deployment's token to the owner (the vault validates only its owner's typed operations; that one moves nothing). Answers our paymaster's sponsorship with the gas it was signed over, the whole operation, and typedDataToSign: what the owner signs (eth_signTypedData_v4), then puts as the signature the 6-byte validUntil followed by the 65-byte signature. Nothing is deployed yet, and no studio is made: a prepare proves nothing of the wallet, so the studio (one per user) is made at submit, once the owner's signature is checked. studioId is null until then (a user who owns a studio may only prepare its own vault again). Prepares count per user and UTC day (MERCHANT_DAILY_OPERATION_QUOTA): our paymaster signs each.",
    ...policy,
    body: prepareVaultRequestSchema,
    response: { status: 200, schema: prepareVaultResponseSchema, description: 'The sponsored operation and what to sign.', headers: noStore },
    errors: [...authErrors, ...operationErrors, 'QUOTA_EXCEEDED', 'PAYMASTER_UNAVAILABLE'],
    async handle({ body }, dependencies, c) {
      const provisioning = provisioningOf(dependencies)
      const user = await provisioningUser(c, provisioning)
      // gas and signature are prepare's to answer: whatever the wallet put there is not read
      const { userOp } = body
      const wire = { sender: userOp.sender, nonce: userOp.nonce, factory: userOp.factory, factoryData: userOp.factoryData, callData: userOp.callData, callGasLimit: '0', verificationGasLimit: '0', preVerificationGas: '0', maxFeePerGas: '0', maxPriorityFeePerGas: '0', signature: '0x' as const }
      const operation = await readDeploymentOperation(provisioning.signing, body.chainId, wire)
      await assertNotDeployed(provisioning.signing, operation.vault)
      // one studio per user: a user who owns one may only prepare its own vault again (a failed deployment)
      const own = await provisioning.deployments.studioOf(user.id)
      if (own && !(own.chainId === body.chainId && isAddressEqual(own.vaultAddress, operation.vault))) throw new StudioExistsError(own.id, own.vaultAddress)
      await provisioning.deployments.prepared(user.id, { chainId: body.chainId, vault: operation.vault, owner: operation.owner, salt: operation.salt }, body.name ?? null, provisioning.preparesPerDay)
      const prepared = await preparedForUser(provisioning, user, operation)
      return { success: true as const, ...prepared, studioId: own?.id ?? null, vaultAddress: operation.vault }
    },
  }),
  provisioningRoute({
    method: 'post',
    path: '/v1/studios/submit',
    summary: "Send the owner's signed vault deployment",
    description:
      "Signed-in user only. The operation prepare returned, signed by the owner over its typedDataToSign, every other field unchanged. Only an operation this same user prepared is taken (403 FORBIDDEN otherwise: an owner's signed deployment seen in a mempool or on-chain cannot be submitted under another sign-in). Once the signature is checked to be the owner's, the user's studio is made (one per user) and the deployment sent, counted in the studio's sponsored operations of the day and of the month (429 QUOTA_EXCEEDED once either is used, with Retry-After). 200 with status deployed and txHash once the vault has code; 202 with status pending when the receipt is late (vaultDeploymentStatus reads pending; the same request follows it).",
    ...policy,
    body: submitVaultRequestSchema,
    response: { status: 200, schema: submitVaultResponseSchema, description: 'Deployed, or pending.', headers: noStore, statusFor: (body) => (body.status === 'pending' ? 202 : 200) },
    errors: submitErrors,
    async handle({ body }, dependencies, c) {
      const provisioning = provisioningOf(dependencies)
      const submitted = await submitDeployment(provisioning, await provisioningUser(c, provisioning), body)
      return {
        success: true as const,
        studioId: submitted.studio.id,
        vaultAddress: submitted.operation.vault,
        userOpHash: submitted.userOpHash,
        status: submitted.status,
        ...(submitted.txHash ? { txHash: submitted.txHash } : { message: pendingMessage }),
      }
    },
  }),
  provisioningRoute({
    method: 'post',
    path: '/v1/studios',
    summary: 'Create a studio from its signed vault deployment (legacy; prepare and submit are preferred)',
    description: 'The same as POST /v1/studios/submit, answered as the studio itself: { success, studio, message }. The deployment may still be pending (202, vaultDeploymentStatus pending).',
    ...policy,
    body: submitVaultRequestSchema,
    response: { status: 201, schema: legacyStudioResponseSchema, description: 'The studio.', headers: noStore, statusFor: (body) => (body.studio.vaultDeploymentStatus === 'deployed' ? 201 : 202) },
    errors: submitErrors,
    async handle({ body }, dependencies, c) {
      const provisioning = provisioningOf(dependencies)
      if (!dependencies.studioReads) throw new Error('the legacy studio route is mounted without the studio reads')
      const submitted = await submitDeployment(provisioning, await provisioningUser(c, provisioning), body)
      return {
        success: true as const,
        studio: await studioOf(dependencies.studioReads, submitted.studio),
        message: submitted.status === 'deployed' ? "The studio's vault is deployed." : pendingMessage,
        userOpHash: submitted.userOpHash,
        ...(submitted.txHash ? { txHash: submitted.txHash } : {}),
      }
    },
  }),
]
