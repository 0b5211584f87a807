import type { AuthEnv } from '../auth/principal'
import type { ApiRoute } from './apiRoute'
import { invoiceShareRoutes, type ShareDeps } from './invoiceShareRoutes'
import { payRoutes, type PayDeps } from './payRoutes'

export type ApiDeps = PayDeps & ShareDeps

/** Every route of the JSON API (SPEC 4.12 and 4.14) with its full path: the server mounts this
 * table and /openapi.json describes it. */
export const apiRoutes: readonly ApiRoute<ApiDeps, AuthEnv>[] = [...payRoutes, ...invoiceShareRoutes]
