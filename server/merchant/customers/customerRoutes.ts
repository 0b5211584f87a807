import { perClientLimit } from '../../http/perClientLimit'
import { apiRoute } from '../../routes/apiRoute'
import { checkCustomerTypeRules } from './customerTypeRules'
import { CustomerNotFoundError, type Customer, type CustomerStore } from './customerStore'
import {
  createCustomerRequestSchema,
  customerIdParams,
  customerListLimits,
  customerListQuerySchema,
  customerListResponseSchema,
  customerResponseSchema,
  updateCustomerRequestSchema,
  type WireCustomer,
} from './customerWire'

/** Absent only where no route runs (a document of the routes). */
export type CustomerRoutesDependencies = { customers?: CustomerStore }

function customersOf(dependencies: CustomerRoutesDependencies): CustomerStore {
  if (!dependencies.customers) throw new Error('the customer routes are mounted without their store')
  return dependencies.customers
}

/** SPEC 2.7 on the wire: dates as ISO 8601, metadata only when there is some. */
export function customerToWire(customer: Customer): WireCustomer {
  const { metadata, createdAt, updatedAt, ...fields } = customer
  return { ...fields, ...(metadata ? { metadata } : {}), createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() }
}

const customerRoute = apiRoute<CustomerRoutesDependencies>()

/** The customer routes', one count per client across them. */
const customersLimit = perClientLimit('customers', (settings) => settings.perMinute)

const readErrors = ['UNAUTHORIZED', 'FORBIDDEN'] as const
const policy = { auth: 'merchant', cors: 'none', rateLimits: [customersLimit] } as const

/**
 * SPEC 4.13: a studio's customers, the billing records its invoices are issued to. Reads need
 * customer:read, writes customer:write (SPEC 5.5 lets customer:write and the legacy scopes stand in).
 * Every route works on the caller's studio only: another studio's customer is a 404 like a missing one.
 */
export const customerRoutes = [
  customerRoute({
    method: 'get',
    path: '/v1/customers',
    summary: "The studio's customers, a page at a time",
    description:
      'Filters: type, search (part of the legal name or email, in any case), walletAddress. Oldest first. The cursor is a decimal offset: the next page is cursor = meta.offset + data.length while meta.hasMore.',
    ...policy,
    scope: 'customer:read',
    query: customerListQuerySchema,
    response: { status: 200, schema: customerListResponseSchema, description: 'One page and where it stands in the whole list.' },
    errors: readErrors,
    async handle({ query }, dependencies, c) {
      const limit = query.limit ?? customerListLimits.default
      const offset = query.cursor ?? 0
      const { customers, total } = await customersOf(dependencies).listCustomers(c.get('principal').studio.id, query, { limit, offset })
      return { data: customers.map(customerToWire), meta: { total, limit, offset, hasMore: offset + customers.length < total } }
    },
  }),
  customerRoute({
    method: 'get',
    path: '/v1/customers/:id',
    summary: 'One customer',
    ...policy,
    scope: 'customer:read',
    params: customerIdParams,
    response: { status: 200, schema: customerResponseSchema, description: 'The customer.' },
    errors: [...readErrors, 'NOT_FOUND'],
    async handle({ params: { id } }, dependencies, c) {
      const customer = await customersOf(dependencies).getCustomer(c.get('principal').studio.id, id)
      if (!customer) throw new CustomerNotFoundError()
      return { data: customerToWire(customer) }
    },
  }),
  customerRoute({
    method: 'post',
    path: '/v1/customers',
    summary: 'Create a customer',
    description:
      "The complete create object of SPEC 2.7; metadata is not accepted. A legal name the studio already uses (in any case and spacing) is a 409 CUSTOMER_EXISTS with existingCustomerId, null when the name was a deleted customer's. Not idempotent: after an ambiguous create, search before sending it again.",
    ...policy,
    scope: 'customer:write',
    body: createCustomerRequestSchema,
    response: { status: 201, schema: customerResponseSchema, description: 'The customer, created.' },
    errors: [...readErrors, 'CUSTOMER_EXISTS'],
    async handle({ body }, dependencies, c) {
      checkCustomerTypeRules(body.type, body, 'create')
      const { metadata: _, ...fields } = body
      return { data: customerToWire(await customersOf(dependencies).createCustomer(c.get('principal').studio.id, fields)) }
    },
  }),
  customerRoute({
    method: 'patch',
    path: '/v1/customers/:id',
    summary: 'Change some of a customer’s fields',
    description:
      'Any editable field but type; omitted fields are kept, an optional text sent empty is cleared, null and unknown fields are refused, and an address is sent whole. A rename onto a name in use is a 409 CUSTOMER_EXISTS.',
    ...policy,
    scope: 'customer:write',
    params: customerIdParams,
    body: updateCustomerRequestSchema,
    response: { status: 200, schema: customerResponseSchema, description: 'The customer as it now is.' },
    errors: [...readErrors, 'NOT_FOUND', 'CUSTOMER_EXISTS'],
    async handle({ params: { id }, body }, dependencies, c) {
      const customers = customersOf(dependencies)
      const studioId = c.get('principal').studio.id
      const current = await customers.getCustomer(studioId, id)
      if (!current) throw new CustomerNotFoundError()
      // the rules of the stored type; the type itself cannot be in the body (the schema refuses it)
      checkCustomerTypeRules(current.type, body, 'update')
      const { type: _type, metadata: _metadata, ...changes } = body
      const updated = await customers.updateCustomer(studioId, id, changes)
      // deleted between the read and the write
      if (!updated) throw new CustomerNotFoundError()
      return { data: customerToWire(updated) }
    },
  }),
  customerRoute({
    method: 'delete',
    path: '/v1/customers/:id',
    summary: 'Delete a customer',
    description: "Its on-chain invoices and their issued encrypted metadata stay as they are; its legal name is not reused.",
    ...policy,
    scope: 'customer:write',
    params: customerIdParams,
    response: { status: 204, description: 'Deleted; no body.' },
    errors: [...readErrors, 'NOT_FOUND'],
    async handle({ params: { id } }, dependencies, c) {
      if (!(await customersOf(dependencies).deleteCustomer(c.get('principal').studio.id, id))) throw new CustomerNotFoundError()
      return c.body(null, 204)
    },
  }),
]
