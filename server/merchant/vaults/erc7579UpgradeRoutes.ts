import type { Address } from 'viem'
import { merchantVaultAbi } from '../../../contracts/artifacts/MerchantVault'
import { HttpError } from '../../http/httpError'
import { apiRoute } from '../../routes/apiRoute'
import { accountsLimit } from '../accounts/signInRoutes'
import { requireOwner } from '../accounts/requireOwner'
import type { VaultProvisioningRoutesDependencies } from './vaultProvisioningRoutes'
import { upgradeParams, upgradeResponseSchema, upgradeSubmitRequestSchema, upgradeSubmitResponseSchema } from './vaultProvisioningWire'

/** ERC-7579's module type of a validator: what the vault's server signer session is. */
const validatorModuleType = 1n

/**
 * Whether the vault is an ERC-7579 account, asked of the vault itself: its accountId, and that it
 * supports validator modules. Our vaults are ERC-7579 from their birth (MerchantVault extends
 * OpenZeppelin's AccountERC7579), so this reads what the chain holds rather than assuming it.
 */
async function erc7579AccountId(dependencies: VaultProvisioningRoutesDependencies, vault: Address): Promise<string> {
  const client = dependencies.vaultProvisioning?.signing.client
  if (!client) throw new Error('the upgrade routes are mounted without their dependencies')
  const code = await client.getCode({ address: vault })
  if (code === undefined || code === '0x') {
    throw new HttpError(409, 'VAULT_NOT_DEPLOYED', `the studio's vault (${vault}) is not deployed yet: deploy it first (POST /v1/studios/prepare, then /v1/studios/submit); it is born an ERC-7579 account`)
  }
  const [accountId, validators] = await Promise.all([
    client.readContract({ address: vault, abi: merchantVaultAbi, functionName: 'accountId' }).catch(() => null),
    client.readContract({ address: vault, abi: merchantVaultAbi, functionName: 'supportsModule', args: [validatorModuleType] }).catch(() => false),
  ])
  if (!accountId || !validators) {
    throw new HttpError(409, 'UPGRADE_NOT_AVAILABLE', `the account at ${vault} is not an ERC-7579 account, and this deployment has no upgrade for it: only its own merchant vaults are served`)
  }
  return accountId
}

const upgradeRoute = apiRoute<VaultProvisioningRoutesDependencies>()
const policy = { auth: 'merchant', cors: 'none', rateLimits: [accountsLimit], signedInOnly: true } as const
const errors = ['UNAUTHORIZED', 'FORBIDDEN', 'MIXED_AUTH', 'VAULT_NOT_DEPLOYED', 'UPGRADE_NOT_AVAILABLE'] as const

/**
 * SPEC 4.3's ERC-7579 upgrade. Our vaults need none: prepare answers already7579 from the vault's
 * own answers, and submit has nothing to send. The studio owner's bearer token only.
 */
export const erc7579UpgradeRoutes = [
  upgradeRoute({
    method: 'post',
    path: '/v1/studios/:studioId/upgrade-7579',
    summary: "Whether the studio's vault needs the ERC-7579 upgrade (it never does)",
    description: "The studio owner's bearer token only. Reads the vault's ERC-7579 accountId and its support of validator modules from the chain: our merchant vaults are ERC-7579 accounts from their deployment, so the answer is already7579: true with the accountId, and there is no operation to sign. 409 VAULT_NOT_DEPLOYED before the vault exists.",
    ...policy,
    params: upgradeParams,
    response: { status: 200, schema: upgradeResponseSchema, description: 'Already an ERC-7579 account.', headers: { 'Cache-Control': 'no-store' } },
    errors,
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const accountId = await erc7579AccountId(dependencies, studio.vaultAddress)
      return { already7579: true as const, vaultAddress: studio.vaultAddress, accountId, message: 'The vault is an ERC-7579 account already (it was deployed as one): there is nothing to upgrade.' }
    },
  }),
  upgradeRoute({
    method: 'post',
    path: '/v1/studios/:studioId/upgrade-7579/submit',
    summary: 'Send a signed ERC-7579 upgrade (there is never one to send)',
    description: "The studio owner's bearer token only. Always 409 NOTHING_TO_UPGRADE for a deployed vault: it is an ERC-7579 account already, so no upgrade operation exists and nothing is sent.",
    ...policy,
    params: upgradeParams,
    body: upgradeSubmitRequestSchema,
    bodyOptional: true,
    response: { status: 200, schema: upgradeSubmitResponseSchema, description: 'Never answered: see the 409.' },
    errors: [...errors, 'NOTHING_TO_UPGRADE'],
    async handle({ params }, dependencies, c) {
      const { studio } = requireOwner(c, params.studioId)
      const accountId = await erc7579AccountId(dependencies, studio.vaultAddress)
      throw new HttpError(409, 'NOTHING_TO_UPGRADE', `the vault is an ERC-7579 account already (${accountId}): there is no upgrade to submit, and nothing was sent`, { already7579: true })
    },
  }),
]
