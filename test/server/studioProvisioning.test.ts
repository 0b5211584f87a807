import { createPublicClient, createTestClient, http, parseEventLogs, type Address, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { merchantVaultAbi } from '../../contracts/artifacts/MerchantVault'
import { merchantVaultFactoryAbi } from '../../contracts/artifacts/MerchantVaultFactory'
import { signInWithPassword } from '../../devnet/passwordSignIn'
import { seedMerchantAccess } from '../../devnet/seedMerchantAccess'
import { demoMerchantUser, devnetApiAudience, devnetIdentityClient, newMerchantUser, seedMerchantLogin } from '../../devnet/seedMerchantLogin'
import { startIdentityProvider, type RunningIdentityProvider } from '../../server/identity/identityProvider'
import { encodeMerchantVaultCall } from '../../shared/merchantVaultCall'
import { unsignedVaultDeployment } from '../../shared/merchantVaultDeployment'
import { ownerOperationSignature } from '../../shared/merchantVaultMessage'
import type { WireUserOp } from '../../shared/userOpWire'
import { answerOf, signedRequest } from '../support/signedRequest'
import { cliOAuthToken } from '../support/cliOAuthToken'
import { freePort } from '../support/loopback'
import { useServer } from '../support/server'
import { workerSigningKey } from '../support/identityKey'

const redirectUri = 'http://127.0.0.1:9/signed-in'
const client = devnetIdentityClient([redirectUri])
/** A second newcomer for the refusals: none of them may leave it a studio. */
const refusedNewcomer = { subject: 'refused-newcomer', email: 'refused@devnet.local', password: 'refused-newcomer-password' }
/** A third, who provisions through the legacy route. */
const legacyNewcomer = { subject: 'legacy-newcomer', email: 'legacy@devnet.local', password: 'legacy-newcomer-password' }
/** A fourth, whose deployment is mined late. */
const lateNewcomer = { subject: 'late-newcomer', email: 'late@devnet.local', password: 'late-newcomer-password' }
/** A fifth, whose signed deployment a sixth, watching, submits under their own sign-in. */
const watchedNewcomer = { subject: 'watched-newcomer', email: 'watched@devnet.local', password: 'watched-newcomer-password' }
const watcher = { subject: 'deployment-watcher', email: 'watcher@devnet.local', password: 'deployment-watcher-password' }

let provider: RunningIdentityProvider
/** A studio's sponsored operations a day, and a user's sponsored prepares. */
const perDay = 3

const ctx = useServer({
  // a receipt later than this is answered 202 pending
  overrides: { SUBMIT_WAIT_MS: '1500', MERCHANT_DAILY_OPERATION_QUOTA: String(perDay) },
  beforeServer: async () => {
    // the server's own authorization server (/oauth) signs people in at the provider too: a CLI's token is refused here
    const port = await freePort()
    provider = await startIdentityProvider({ port: 0, audience: devnetApiAudience, users: [demoMerchantUser, newMerchantUser, refusedNewcomer, legacyNewcomer, lateNewcomer, watchedNewcomer, watcher], clients: [devnetIdentityClient([redirectUri, `http://127.0.0.1:${port}/oauth/signed-in`])], signingKey: await workerSigningKey() })
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string }
    return { JWT_ISSUER: discovery.issuer, JWT_JWKS_URL: discovery.jwks_uri, JWT_AUDIENCE: devnetApiAudience, OAUTH_IDENTITY_CLIENT_ID: client.clientId, PORT: String(port) }
  },
})
afterAll(async () => {
  await provider?.close()
})

const chain = () => createPublicClient({ transport: http(ctx.devnet.anvil.rpcUrl) })
const signIn = async (user: { email: string; password: string }) =>
  (await signInWithPassword({ issuer: provider.issuer, clientId: client.clientId, redirectUri, email: user.email, password: user.password, resource: devnetApiAudience })).accessToken

async function call(path: string, bearer: string | null, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers }
  return answerOf(await fetch(`${ctx.server.url}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }) }))
}

/** The vault's unsigned deployment for `owner`, as a wallet builds it: the factory's address for it. */
async function deploymentFor(owner: Address): Promise<WireUserOp> {
  const { deployment } = ctx.devnet
  const factory = deployment.merchantVaultFactory!
  const vault = await chain().readContract({ address: factory, abi: merchantVaultFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
  return unsignedVaultDeployment({ factory, vault, owner, token: deployment.token })
}

/** What the owner's wallet does with prepare's answer: signs its typed message (eth_signTypedData_v4). */
async function signPrepared(owner: PrivateKeyAccount, prepared: { userOp: WireUserOp; typedDataToSign: { domain: any; types: any; primaryType: string; message: Record<string, string> } }): Promise<WireUserOp> {
  const { domain, types, primaryType, message } = prepared.typedDataToSign
  const signature = await owner.signTypedData({
    domain,
    types,
    primaryType,
    message: { ...message, amount: BigInt(message.amount!), validUntil: BigInt(message.validUntil!) },
  } as Parameters<PrivateKeyAccount['signTypedData']>[0])
  return { ...prepared.userOp, signature: ownerOperationSignature(BigInt(message.validUntil!), signature) }
}

let demoStudioId: string
let apiKey: { keyId: string; secret: string }

beforeAll(async () => {
  ;({ studioId: demoStudioId, apiKey } = await seedMerchantAccess(ctx.server.stores, ctx.devnet))
  await seedMerchantLogin(ctx.server.stores, provider.issuer, demoStudioId)
})

const chainId = () => ctx.devnet.deployment.chainId

/** The new merchant's provisioning, carried from prepare to submit to the reads after. */
const newcomer = {} as { token: string; owner: PrivateKeyAccount; unsigned: WireUserOp; prepared: any; signed: WireUserOp; submitted: any }

describe('POST /v1/studios/prepare', () => {
  test("the new user signs in without a studio; prepare answers our paymaster's sponsorship and the typed withdrawal of nothing the owner signs; nothing is deployed", async () => {
    newcomer.token = await signIn(newMerchantUser)
    const first = await call('/v1/auth/login', newcomer.token, { method: 'POST' })
    expect(first.body).toMatchObject({ success: true, user: { email: newMerchantUser.email, studioId: null, isNewUser: true } })

    newcomer.owner = privateKeyToAccount(generatePrivateKey())
    newcomer.unsigned = await deploymentFor(newcomer.owner.address)
    const { paymaster, token: stablecoin } = ctx.devnet.deployment
    const prepared = await call('/v1/studios/prepare', newcomer.token, { body: { name: 'New Merchant Studio', chainId: chainId(), userOp: newcomer.unsigned } })
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200)
    newcomer.prepared = prepared.body
    expect(prepared.body.sponsorship.paymaster).toBe(paymaster)
    expect(prepared.body.userOp).toMatchObject({ ...prepared.body.sponsorship, sender: newcomer.unsigned.sender, factory: newcomer.unsigned.factory, factoryData: newcomer.unsigned.factoryData, signature: '0x' })
    // what the wallet shows: a withdrawal of nothing to the owner, on this very vault and operation
    expect(prepared.body.typedDataToSign).toMatchObject({
      primaryType: 'Withdrawal',
      domain: { chainId: chainId(), verifyingContract: newcomer.unsigned.sender },
      message: { token: stablecoin, amount: '0', to: newcomer.owner.address, vault: newcomer.unsigned.sender, operation: prepared.body.userOpHash },
    })
    expect(await chain().getCode({ address: newcomer.unsigned.sender })).toBeUndefined()
    // and no studio yet: a prepare proves nothing of the wallet
    expect(prepared.body.studioId).toBeNull()
    expect((await call('/v1/auth/login', newcomer.token, { method: 'POST' })).body.user.studioId).toBeNull()
    expect((await call('/v1/studios/me', newcomer.token)).status).toBe(403)
  })

  test("a prepare claims nothing: another user may prepare the same owner's vault, and it stays the owner's to deploy", async () => {
    const squatter = await signIn(refusedNewcomer)
    await call('/v1/auth/login', squatter, { method: 'POST' })
    const squatted = await call('/v1/studios/prepare', squatter, { body: { chainId: chainId(), userOp: newcomer.unsigned } })
    expect(squatted.status).toBe(200)
    expect(squatted.body.studioId).toBeNull()
    expect((await call('/v1/auth/login', squatter, { method: 'POST' })).body.user.studioId).toBeNull()
  })

  test("a user's prepares are sponsored a few a UTC day; the next is 429 QUOTA_EXCEEDED with when it resets", async () => {
    const token = await signIn(refusedNewcomer)
    const userOp = await deploymentFor(privateKeyToAccount(generatePrivateKey()).address)
    // at most twice the day's count before the refusal, whatever the day: a UTC midnight may pass once
    const answers: number[] = []
    let refused: Awaited<ReturnType<typeof call>> | undefined
    while (!refused && answers.length <= 2 * perDay) {
      const answer = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp } })
      answers.push(answer.status)
      if (answer.status !== 200) refused = answer
    }
    expect(refused?.status).toBe(429)
    expect(refused?.body).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: perDay })
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Date.parse(refused?.body.resetsAt)).toBeGreaterThan(Date.now())
    expect(answers.filter((status) => status === 200).length).toBeGreaterThanOrEqual(perDay - 1)
  })

  test('the demo merchant, who owns a studio, cannot provision a second one', async () => {
    const token = await signIn(demoMerchantUser)
    const prepared = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: await deploymentFor(privateKeyToAccount(generatePrivateKey()).address) } })
    expect(prepared.status).toBe(409)
    expect(prepared.body).toMatchObject({ code: 'STUDIO_EXISTS', studioId: demoStudioId })
  })

  test("a vault at another owner's address, another chain, a tampered or empty call, or an already deployed vault is refused, and leaves the user no studio", async () => {
    const token = await signIn(refusedNewcomer)
    await call('/v1/auth/login', token, { method: 'POST' })
    const owner = privateKeyToAccount(generatePrivateKey())
    const own = await deploymentFor(owner.address)
    const someoneElses = await deploymentFor(privateKeyToAccount(generatePrivateKey()).address)

    const stolen = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: { ...own, sender: someoneElses.sender } } })
    expect(stolen.status).toBe(400)
    expect(stolen.body).toMatchObject({ code: 'VAULT_ADDRESS_MISMATCH', vaultAddress: own.sender })

    const otherChain = await call('/v1/studios/prepare', token, { body: { chainId: 1, userOp: own } })
    expect(otherChain.status).toBe(400)
    expect(otherChain.body).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })

    const withdrawOne = encodeMerchantVaultCall({ kind: 'Withdrawal', token: ctx.devnet.deployment.token, amount: 1n, to: owner.address })
    const tampered = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: { ...own, callData: withdrawOne } } })
    expect(tampered.status).toBe(400)
    expect(tampered.body).toMatchObject({ code: 'USEROP_CALL_MISMATCH' })
    const emptyCall = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: { ...own, callData: '0x' } } })
    expect(emptyCall.body).toMatchObject({ code: 'USEROP_CALL_MISMATCH' })

    const deployed = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: await deploymentFor(ctx.devnet.seed.merchant.owner) } })
    expect(deployed.status).toBe(409)
    expect(deployed.body).toMatchObject({ code: 'VAULT_ALREADY_DEPLOYED' })

    const login = await call('/v1/auth/login', token, { method: 'POST' })
    expect(login.body.user.studioId).toBeNull()
  })
})

describe('POST /v1/studios/submit', () => {
  test("a signature by anyone but the owner, over changed gas, or of the bare hash is refused and nothing is deployed", async () => {
    const { prepared, token } = newcomer
    const byStranger = await signPrepared(privateKeyToAccount(generatePrivateKey()), prepared)
    const refused = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: byStranger } })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'OWNER_SIGNATURE_INVALID' })

    newcomer.signed = await signPrepared(newcomer.owner, prepared)
    const moreGas = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: { ...newcomer.signed, callGasLimit: String(BigInt(newcomer.signed.callGasLimit) + 1n) } } })
    expect(moreGas.status).toBe(400)
    expect(moreGas.body).toMatchObject({ code: 'OWNER_SIGNATURE_INVALID' })

    const bareHash = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: { ...newcomer.signed, signature: await newcomer.owner.sign({ hash: prepared.userOpHash }) } } })
    expect(bareHash.status).toBe(400)
    expect(bareHash.body).toMatchObject({ code: 'OWNER_SIGNATURE_INVALID' })

    expect(await chain().getCode({ address: newcomer.unsigned.sender })).toBeUndefined()
    // a signature that is not the owner's made no studio either
    expect((await call('/v1/auth/login', token, { method: 'POST' })).body.user.studioId).toBeNull()
  })

  test("the owner's signed deployment puts the vault on-chain at its counterfactual address, owned by the wallet; the studio reads deployed and sign-in names it", async () => {
    const { token, unsigned, prepared, signed } = newcomer
    const submitted = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: signed } })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    newcomer.submitted = submitted.body
    expect(submitted.body).toMatchObject({ success: true, studioId: expect.stringMatching(/^[0-9a-f-]{36}$/), vaultAddress: unsigned.sender, userOpHash: prepared.userOpHash, status: 'deployed', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })

    expect(await chain().getCode({ address: unsigned.sender })).toMatch(/^0x[0-9a-f]{10,}/)
    expect(await chain().readContract({ address: unsigned.sender, abi: merchantVaultAbi, functionName: 'owner' })).toBe(newcomer.owner.address)
    const receipt = await chain().getTransactionReceipt({ hash: submitted.body.txHash as Hex })
    expect(receipt.status).toBe('success')
    // the EntryPoint's own record: this vault's operation, successful, paid for by our paymaster
    const [event] = parseEventLogs({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).filter((log) => log.args.userOpHash === prepared.userOpHash)
    expect(event?.args).toMatchObject({ sender: unsigned.sender, paymaster: ctx.devnet.deployment.paymaster, success: true, nonce: 0n })
    console.log(`vault deployment: ${event!.args.actualGasUsed} gas used of ${BigInt(prepared.userOp.verificationGasLimit) + BigInt(prepared.userOp.callGasLimit) + BigInt(prepared.userOp.preVerificationGas) + BigInt(prepared.userOp.paymasterVerificationGasLimit)} allowed`)

    const me = await call('/v1/studios/me', token)
    expect(me.body.data).toMatchObject({ id: submitted.body.studioId, name: 'New Merchant Studio', vaultAddress: unsigned.sender, vaultChainId: chainId(), vaultDeploymentStatus: 'deployed' })
    const again = await call('/v1/auth/login', token, { method: 'POST' })
    expect(again.body.user).toMatchObject({ studioId: submitted.body.studioId, isNewUser: false })

    // the same signed operation again answers what was done, and sends nothing
    const replay = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: signed } })
    expect(replay.status).toBe(200)
    expect(replay.body).toMatchObject({ status: 'deployed', txHash: submitted.body.txHash })

    // one studio per user: another vault is refused
    const another = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: await deploymentFor(privateKeyToAccount(generatePrivateKey()).address) } })
    expect(another.status).toBe(409)
    expect(another.body).toMatchObject({ code: 'STUDIO_EXISTS', studioId: submitted.body.studioId })
  })
})

describe('POST /v1/studios/submit, by someone who saw the signed deployment', () => {
  test("a watcher who submits another user's signed deployment under their own sign-in is refused 403 and gets no studio, before and after it lands; the user who prepared it gets their studio", async () => {
    const ownerToken = await signIn(watchedNewcomer)
    await call('/v1/auth/login', ownerToken, { method: 'POST' })
    const watcherToken = await signIn(watcher)
    await call('/v1/auth/login', watcherToken, { method: 'POST' })
    const owner = privateKeyToAccount(generatePrivateKey())
    const unsigned = await deploymentFor(owner.address)
    const prepared = await call('/v1/studios/prepare', ownerToken, { body: { name: 'Watched Studio', chainId: chainId(), userOp: unsigned } })
    expect(prepared.status).toBe(200)
    // the watcher prepares the same vault at once, most likely in the same second: the operation they
    // are given is another one, never the owner's, which only the owner's user may submit
    const watcherPrepared = await call('/v1/studios/prepare', watcherToken, { body: { chainId: chainId(), userOp: unsigned } })
    expect(watcherPrepared.status).toBe(200)
    expect(watcherPrepared.body.userOpHash).not.toBe(prepared.body.userOpHash)
    const signed = await signPrepared(owner, prepared.body)

    for (const path of ['/v1/studios/submit', '/v1/studios']) {
      const claimed = await call(path, watcherToken, { body: { name: 'Not Yours', chainId: chainId(), userOp: signed } })
      expect(claimed.status, JSON.stringify(claimed.body)).toBe(403)
      expect(claimed.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('not prepared for you') })
    }
    expect((await call('/v1/auth/login', watcherToken, { method: 'POST' })).body.user.studioId).toBeNull()
    expect(await chain().getCode({ address: unsigned.sender })).toBeUndefined()

    const submitted = await call('/v1/studios/submit', ownerToken, { body: { chainId: chainId(), userOp: signed } })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    expect(submitted.body).toMatchObject({ status: 'deployed', vaultAddress: unsigned.sender })
    expect((await call('/v1/studios/me', ownerToken)).body.data).toMatchObject({ id: submitted.body.studioId, name: 'Watched Studio', vaultAddress: unsigned.sender })

    // once it is on-chain for anyone to read, the replay is refused just the same
    const replayed = await call('/v1/studios/submit', watcherToken, { body: { chainId: chainId(), userOp: signed } })
    expect(replayed.status).toBe(403)
    expect(replayed.body).toMatchObject({ code: 'FORBIDDEN' })
    expect((await call('/v1/auth/login', watcherToken, { method: 'POST' })).body.user.studioId).toBeNull()
  })
})

describe('POST /v1/studios/submit, mined late', () => {
  test('a deployment not mined in time answers 202 pending and the studio reads pending; once mined it reads deployed, and the same submit answers its txHash', async () => {
    const token = await signIn(lateNewcomer)
    await call('/v1/auth/login', token, { method: 'POST' })
    const owner = privateKeyToAccount(generatePrivateKey())
    const prepared = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: await deploymentFor(owner.address) } })
    expect(prepared.status).toBe(200)
    const signed = await signPrepared(owner, prepared.body)
    const anvil = createTestClient({ mode: 'anvil', transport: http(ctx.devnet.anvil.rpcUrl) })
    await anvil.setAutomine(false)
    try {
      const pending = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: signed } })
      expect(pending.status, JSON.stringify(pending.body)).toBe(202)
      expect(pending.body).toMatchObject({ success: true, studioId: expect.any(String), vaultAddress: prepared.body.vaultAddress, userOpHash: prepared.body.userOpHash, status: 'pending', message: expect.any(String) })
      expect(pending.body.txHash).toBeUndefined()
      expect((await call('/v1/studios/me', token)).body.data.vaultDeploymentStatus).toBe('pending')
      await anvil.mine({ blocks: 1 })
    } finally {
      await anvil.setAutomine(true)
    }
    await expect.poll(async () => (await call('/v1/studios/me', token)).body.data.vaultDeploymentStatus).toBe('deployed')
    const followed = await call('/v1/studios/submit', token, { body: { chainId: chainId(), userOp: signed } })
    expect(followed.status).toBe(200)
    expect(followed.body).toMatchObject({ status: 'deployed', userOpHash: prepared.body.userOpHash, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect((await chain().getTransactionReceipt({ hash: followed.body.txHash })).status).toBe('success')
  })
})

describe('POST /v1/studios', () => {
  test('the legacy route takes the signed deployment and answers the studio, deployed', async () => {
    const token = await signIn(legacyNewcomer)
    await call('/v1/auth/login', token, { method: 'POST' })
    const owner = privateKeyToAccount(generatePrivateKey())
    const prepared = await call('/v1/studios/prepare', token, { body: { chainId: chainId(), userOp: await deploymentFor(owner.address) } })
    expect(prepared.status).toBe(200)
    const created = await call('/v1/studios', token, { body: { name: 'Legacy Studio', chainId: chainId(), userOp: await signPrepared(owner, prepared.body) } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body).toMatchObject({ success: true, studio: { id: (await call('/v1/auth/me', token)).body.user.studioId, name: 'Legacy Studio', vaultAddress: prepared.body.vaultAddress, vaultDeploymentStatus: 'deployed' }, message: expect.any(String) })
    expect(await chain().readContract({ address: prepared.body.vaultAddress, abi: merchantVaultAbi, functionName: 'owner' })).toBe(owner.address)
  })
})

describe('GET /v1/studios/:id/quotas', () => {
  test("the deployment counted as one of the studio's sponsored operations today", async () => {
    const quotas = await call(`/v1/studios/${newcomer.submitted.studioId}/quotas`, newcomer.token)
    expect(quotas.status).toBe(200)
    expect(quotas.body).toMatchObject({ success: true, studioId: newcomer.submitted.studioId, quotas: [{ name: 'sponsored_operations', period: 'day', used: 1 }, { name: 'sponsored_operations', period: 'month', used: 1 }] })
    expect(quotas.body.quotas[0].remaining).toBe(quotas.body.quotas[0].limit - 1)
    expect(Date.parse(quotas.body.quotas[0].resetsAt)).toBeGreaterThan(Date.now())
  })
})

describe('POST /v1/studios/:studioId/upgrade-7579', () => {
  test('the vault says it is an ERC-7579 account from birth: already7579, for the new studio and the demo one', async () => {
    const upgrade = await call(`/v1/studios/${newcomer.submitted.studioId}/upgrade-7579`, newcomer.token, { method: 'POST' })
    expect(upgrade.status).toBe(200)
    expect(upgrade.body).toMatchObject({ already7579: true, vaultAddress: newcomer.unsigned.sender, accountId: expect.stringContaining('7579') })
    const demo = await call(`/v1/studios/${demoStudioId}/upgrade-7579`, await signIn(demoMerchantUser), { method: 'POST' })
    expect(demo.body).toMatchObject({ already7579: true, vaultAddress: ctx.devnet.seed.merchant.vault })
  })
})

describe('POST /v1/studios/:studioId/upgrade-7579/submit', () => {
  test('there is nothing to upgrade: 409 NOTHING_TO_UPGRADE', async () => {
    const upgradeSubmit = await call(`/v1/studios/${newcomer.submitted.studioId}/upgrade-7579/submit`, newcomer.token, { body: {} })
    expect(upgradeSubmit.status).toBe(409)
    expect(upgradeSubmit.body).toMatchObject({ code: 'NOTHING_TO_UPGRADE', already7579: true })
  })
})

describe('who may provision (SPEC 5.6: the owner signed in, nothing else)', () => {
  test("an API key, a CLI's OAuth token, a key beside a token, or no credential cannot provision, upgrade or read quotas; nor can another studio's owner", async () => {
    const token = await signIn(refusedNewcomer)
    // the demo merchant's CLI sign-in, with every scope a CLI may be granted
    const oauthToken = await cliOAuthToken({ serverUrl: ctx.server.url, user: demoMerchantUser, approve: ['invoice:read', 'customer:read', 'dashboard:read', 'invoice:write', 'customer:write'] })
    expect(oauthToken).toMatch(/^svc_oat_/)
    expect((await call('/v1/studios/me', oauthToken)).status).toBe(200)
    const body = JSON.stringify({ chainId: chainId(), userOp: await deploymentFor(privateKeyToAccount(generatePrivateKey()).address) })
    for (const path of ['/v1/studios/prepare', '/v1/studios/submit', '/v1/studios']) {
      const keyed = await signedRequest(ctx.server.url, apiKey, { method: 'POST', path, body })
      expect(keyed.status, path).toBe(403)
      expect(keyed.body).toMatchObject({ code: 'FORBIDDEN' })
      const oauth = await call(path, oauthToken, { body: JSON.parse(body) })
      expect(oauth.status, path).toBe(403)
      expect(oauth.body).toMatchObject({ code: 'FORBIDDEN' })
      const mixed = await signedRequest(ctx.server.url, apiKey, { method: 'POST', path, body, send: { headers: { authorization: `Bearer ${token}` } } })
      expect(mixed.body, path).toMatchObject({ code: 'MIXED_AUTH' })
      const anonymous = await call(path, null, { body: JSON.parse(body) })
      expect(anonymous.status, path).toBe(401)
      expect(anonymous.body).toMatchObject({ code: 'UNAUTHORIZED' })
    }
    const otherOwner = newcomer.token
    for (const path of [`/v1/studios/${demoStudioId}/upgrade-7579`, `/v1/studios/${demoStudioId}/upgrade-7579/submit`, `/v1/studios/${demoStudioId}/quotas`]) {
      const method = path.endsWith('quotas') ? 'GET' : 'POST'
      const keyed = await signedRequest(ctx.server.url, apiKey, { method, path, ...(method === 'POST' ? { body: '{}' } : {}) })
      expect(keyed.status, path).toBe(403)
      expect((await call(path, null, { method })).status, path).toBe(401)
      expect((await call(path, otherOwner, { method })).status, path).toBe(403)
      const oauth = await call(path, oauthToken, { method })
      expect(oauth.status, path).toBe(403)
      expect(oauth.body).toMatchObject({ code: 'FORBIDDEN' })
    }
    expect((await call('/v1/auth/login', token, { method: 'POST' })).body.user.studioId).toBeNull()
  })
})
