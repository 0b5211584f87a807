import type { AuthEnv } from '../auth/principal'
import type { ApiRoute } from './apiRoute'
import { invoiceShareRoutes, type InvoiceShareRoutesDependencies } from './invoiceShareRoutes'
import { payRoutes, type PayRoutesDependencies } from './payRoutes'
import { paymasterRoutes, type PaymasterRoutesDependencies } from './paymasterRoutes'

export type ApiRoutesDependencies = PayRoutesDependencies & InvoiceShareRoutesDependencies & PaymasterRoutesDependencies

/** Every route of the JSON API (SPEC 4.12 and 4.14, and the ERC-7677 paymaster service) with its full path: the server mounts this
 * table and /openapi.json describes it. */
export const apiRoutes: readonly ApiRoute<ApiRoutesDependencies, AuthEnv>[] = [...payRoutes, ...paymasterRoutes, ...invoiceShareRoutes]
