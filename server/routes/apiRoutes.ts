import type { AuthEnv } from '../auth/principal'
import type { ApiRoute } from './apiRoute'
import { brandingRoutes, type BrandingRoutesDependencies } from './brandingRoutes'
import { customerRoutes, type CustomerRoutesDependencies } from '../merchant/customers/customerRoutes'
import { invoiceShareRoutes, type InvoiceShareRoutesDependencies } from './invoiceShareRoutes'
import { issueRoutes, type IssueRoutesDependencies } from '../merchant/invoices/issueRoute'
import { clientSignedIssueRoutes } from '../merchant/invoices/clientSignedRoutes'
import { invoiceReadRoutes, type InvoiceReadRoutesDependencies } from '../merchant/invoices/invoiceReadRoutes'
import { sendEmailRoutes, type SendEmailRoutesDependencies } from '../merchant/email/sendEmailRoutes'
import { cancelRoutes, type CancelRoutesDependencies } from '../merchant/cancel/cancelRoutes'
import { withdrawalRoutes, type WithdrawalRoutesDependencies } from '../merchant/withdrawals/withdrawalRoutes'
import { refundRoutes, type RefundRoutesDependencies } from '../merchant/refunds/refundRoutes'
import { paymentRoutes, type PaymentRoutesDependencies } from '../merchant/payments/paymentRoutes'
import { studioRoutes, type StudioRoutesDependencies } from '../merchant/studios/studioRoutes'
import { registryRoutes, type RegistryRoutesDependencies } from '../merchant/studios/registryRoutes'
import { signInRoutes, type SignInRoutesDependencies } from '../merchant/accounts/signInRoutes'
import { studioSettingsRoutes, type StudioSettingsRoutesDependencies } from '../merchant/accounts/studioSettingsRoutes'
import { apiKeyRoutes, type ApiKeyRoutesDependencies } from '../merchant/accounts/apiKeyRoutes'
import { signerRoutes } from '../merchant/signer/signerRoutes'
import { connectionRoutes, type ConnectionRoutesDependencies } from '../merchant/oauth/connectionRoutes'
import { vaultProvisioningRoutes, type VaultProvisioningRoutesDependencies } from '../merchant/vaults/vaultProvisioningRoutes'
import { erc7579UpgradeRoutes } from '../merchant/vaults/erc7579UpgradeRoutes'
import { studioQuotaRoutes, type StudioQuotaRoutesDependencies } from '../merchant/studios/studioQuotaRoutes'
import { agentRoutes, type AgentRoutesDependencies } from '../merchant/agents/agentRoutes'
import { leadRoutes, type LeadRoutesDependencies } from '../merchant/leads/leadRoutes'
import { payRoutes, type PayRoutesDependencies } from './payRoutes'
import { paymasterRoutes, type PaymasterRoutesDependencies } from './paymasterRoutes'
import { webhookRoutes, type WebhookRoutesDependencies } from './webhookRoutes'

export type ApiRoutesDependencies = PayRoutesDependencies & PaymasterRoutesDependencies & InvoiceShareRoutesDependencies & WebhookRoutesDependencies & BrandingRoutesDependencies & CustomerRoutesDependencies & SendEmailRoutesDependencies & InvoiceReadRoutesDependencies & IssueRoutesDependencies & CancelRoutesDependencies & WithdrawalRoutesDependencies & RefundRoutesDependencies & PaymentRoutesDependencies & StudioRoutesDependencies & RegistryRoutesDependencies & SignInRoutesDependencies & StudioSettingsRoutesDependencies & ApiKeyRoutesDependencies & ConnectionRoutesDependencies & VaultProvisioningRoutesDependencies & StudioQuotaRoutesDependencies & AgentRoutesDependencies & LeadRoutesDependencies

/** Every route of the JSON API (SPEC 4.12 and 4.14; beside them the ERC-7677 paymaster service, the webhook endpoints and a
 * studio's branding) with its full path: the server mounts this table and /openapi.json describes it. */
export const apiRoutes: readonly ApiRoute<ApiRoutesDependencies, AuthEnv>[] = [...payRoutes, ...paymasterRoutes, ...invoiceReadRoutes, ...invoiceShareRoutes, ...webhookRoutes, ...brandingRoutes, ...customerRoutes, ...sendEmailRoutes, ...issueRoutes, ...clientSignedIssueRoutes, ...cancelRoutes, ...withdrawalRoutes, ...refundRoutes, ...paymentRoutes, ...studioRoutes, ...registryRoutes, ...signInRoutes, ...studioSettingsRoutes, ...apiKeyRoutes, ...signerRoutes, ...connectionRoutes, ...vaultProvisioningRoutes, ...erc7579UpgradeRoutes, ...studioQuotaRoutes, ...agentRoutes, ...leadRoutes]
