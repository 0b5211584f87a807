import { randomUUID } from 'node:crypto'
import { getAddress, type Address } from 'viem'
import { isUuid, isViolationOf, type Database, type Queryable } from '../../store/database'
import { StoreError } from '../../store/storeError'
import type { PostalAddress } from '../postalAddress'
import type { CustomerType } from './customerWire'

/** SPEC 2.7, as kept (migration 12). Optional texts are null when unset. */
export type Customer = {
  id: string
  studioId: string
  type: CustomerType
  legalName: string
  email: string
  address: PostalAddress
  registrationNumber: string | null
  tradeName: string | null
  taxId: string | null
  vatNumber: string | null
  notes: string | null
  walletAddress: Address | null
  metadata: Record<string, unknown> | null
  createdAt: Date
  updatedAt: Date
}

/** What a merchant may set. An optional text given empty is unset (null). */
export type CustomerFields = {
  legalName: string
  email: string
  address: PostalAddress
  registrationNumber?: string | undefined
  tradeName?: string | undefined
  taxId?: string | undefined
  vatNumber?: string | undefined
  notes?: string | undefined
  walletAddress?: string | undefined
}

export type NewCustomer = CustomerFields & { type: CustomerType }
export type CustomerChanges = { [Field in keyof CustomerFields]?: CustomerFields[Field] | undefined }

export type CustomerListFilter = { type?: CustomerType | undefined; search?: string | undefined; walletAddress?: string | undefined }

/** 409 (SPEC 7.3): the studio already has a customer of this name. existingCustomerId is null when
 * the name belongs to a deleted customer, which no route shows any more. */
export class CustomerExistsError extends StoreError {
  override name = 'CustomerExistsError'
  readonly code = 'CUSTOMER_EXISTS'
  constructor(existingCustomerId: string | null) {
    super(
      existingCustomerId === null
        ? 'a deleted customer of yours had this legal name, and names are not reused: choose another name'
        : 'a customer of yours already has this legal name: use existingCustomerId, or choose another name',
      { details: { existingCustomerId } },
    )
  }
}

/** 404: no live customer with this id in the caller's studio; another studio's is answered the same. */
export class CustomerNotFoundError extends StoreError {
  override name = 'CustomerNotFoundError'
  readonly code = 'CUSTOMER_NOT_FOUND'
  constructor() {
    super('no customer with this id in your studio')
  }
}

/**
 * How a studio's customer names are compared: spaces at the ends and runs of them inside do not
 * make another name, nor does case or a composed against a decomposed accent. Computed here, not by
 * the database's lower(), which depends on its locale.
 */
export function customerNameKey(legalName: string): string {
  return legalName.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase()
}

type CustomerRow = {
  id: string
  studio_id: string
  type: CustomerType
  legal_name: string
  email: string
  street: string
  city: string
  postal: string
  country: string
  registration_number: string | null
  trade_name: string | null
  tax_id: string | null
  vat_number: string | null
  notes: string | null
  wallet_address: string | null
  metadata: Record<string, unknown> | null
  created_at: Date
  updated_at: Date
}

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    studioId: row.studio_id,
    type: row.type,
    legalName: row.legal_name,
    email: row.email,
    address: { street: row.street, city: row.city, postal: row.postal, country: row.country },
    registrationNumber: row.registration_number,
    tradeName: row.trade_name,
    taxId: row.tax_id,
    vatNumber: row.vat_number,
    notes: row.notes,
    walletAddress: row.wallet_address ? getAddress(row.wallet_address) : null,
    metadata: row.metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

const columns = `id, studio_id, type, legal_name, email, street, city, postal, country, registration_number, trade_name,
  tax_id, vat_number, notes, wallet_address, metadata, created_at, updated_at`

const orNull = (text: string | undefined) => (text === undefined || text === '' ? null : text)

/** Each settable field's columns and values, for an insert or an update: the one list of which
 * column holds which field. */
function columnValues(fields: CustomerChanges): [string, unknown][] {
  const pairs: [string, unknown][] = []
  if (fields.legalName !== undefined) pairs.push(['legal_name', fields.legalName.trim()], ['legal_name_key', customerNameKey(fields.legalName)])
  if (fields.email !== undefined) pairs.push(['email', fields.email])
  if (fields.address !== undefined) {
    const { street, city, postal, country } = fields.address
    pairs.push(['street', street], ['city', city], ['postal', postal], ['country', country])
  }
  const optional: [keyof CustomerChanges, string][] = [
    ['registrationNumber', 'registration_number'],
    ['tradeName', 'trade_name'],
    ['taxId', 'tax_id'],
    ['vatNumber', 'vat_number'],
    ['notes', 'notes'],
  ]
  for (const [field, column] of optional) {
    const value = fields[field]
    if (value !== undefined) pairs.push([column, orNull(value as string)])
  }
  if (fields.walletAddress !== undefined) pairs.push(['wallet_address', orNull(fields.walletAddress)?.toLowerCase() ?? null])
  return pairs
}

/** LIKE's own characters in a search are searched for, not patterns. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`)

/** The studio's customers (migration 12). Every read and write names the studio: an id of another
 * studio's customer finds nothing, exactly as a missing one. */
export function createCustomerStore(db: Database) {
  /** Who holds the name a write collided with: the live customer's id, or null for a deleted one. */
  async function nameHolder(studioId: string, legalName: string): Promise<string | null> {
    const [row] = await db.query<{ id: string; deleted: boolean }>(
      'SELECT id, deleted_at IS NOT NULL AS deleted FROM customers WHERE studio_id = $1 AND legal_name_key = $2',
      [studioId, customerNameKey(legalName)],
    )
    return row && !row.deleted ? row.id : null
  }

  async function named<T>(studioId: string, legalName: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      // two writes racing for one name both pass any check made first: the constraint decides
      if (legalName !== undefined && isViolationOf(error, 'customers_name_unique')) throw new CustomerExistsError(await nameHolder(studioId, legalName))
      throw error
    }
  }

  return {
    async createCustomer(studioId: string, customer: NewCustomer): Promise<Customer> {
      const pairs: [string, unknown][] = [['id', randomUUID()], ['studio_id', studioId], ['type', customer.type], ...columnValues(customer)]
      const placeholders = pairs.map((_, i) => `$${i + 1}`).join(', ')
      return named(studioId, customer.legalName, async () => {
        const [row] = await db.query<CustomerRow>(
          `INSERT INTO customers (${pairs.map(([column]) => column).join(', ')}) VALUES (${placeholders}) RETURNING ${columns}`,
          pairs.map(([, value]) => value),
        )
        return toCustomer(row!)
      })
    },

    async getCustomer(studioId: string, id: string): Promise<Customer | null> {
      if (!isUuid(id)) return null
      const [row] = await db.query<CustomerRow>(`SELECT ${columns} FROM customers WHERE id = $1 AND studio_id = $2 AND deleted_at IS NULL`, [id, studioId])
      return row ? toCustomer(row) : null
    },

    /** A live customer by its legal name, compared as names are (customerNameKey). */
    async findCustomerByName(studioId: string, legalName: string): Promise<Customer | null> {
      const [row] = await db.query<CustomerRow>(`SELECT ${columns} FROM customers WHERE studio_id = $1 AND legal_name_key = $2 AND deleted_at IS NULL`, [
        studioId,
        customerNameKey(legalName),
      ])
      return row ? toCustomer(row) : null
    },

    /** One page, oldest first: customers created while a merchant pages land on a later page instead
     * of shifting the ones already read. `total` counts every match, on any page. */
    async listCustomers(studioId: string, filter: CustomerListFilter, page: { limit: number; offset: number }): Promise<{ customers: Customer[]; total: number }> {
      const conditions = ['studio_id = $1', 'deleted_at IS NULL']
      const params: unknown[] = [studioId]
      const bind = (value: unknown) => `$${params.push(value)}`
      if (filter.type) conditions.push(`type = ${bind(filter.type)}`)
      if (filter.walletAddress) conditions.push(`wallet_address = ${bind(filter.walletAddress.toLowerCase())}`)
      if (filter.search) {
        const key = `%${likeEscaped(customerNameKey(filter.search))}%`
        const email = `%${likeEscaped(filter.search.trim().toLowerCase())}%`
        conditions.push(`(legal_name_key LIKE ${bind(key)} ESCAPE '\\' OR lower(email) LIKE ${bind(email)} ESCAPE '\\')`)
      }
      const where = conditions.join(' AND ')
      const paged = `ORDER BY created_order LIMIT $${params.length + 1} OFFSET $${params.length + 2}`
      const read = async (tx: Queryable) => {
        const [counted] = await tx.query<{ total: number | string }>(`SELECT count(*) AS total FROM customers WHERE ${where}`, params)
        const rows = await tx.query<CustomerRow>(`SELECT ${columns} FROM customers WHERE ${where} ${paged}`, [...params, page.limit, page.offset])
        return { customers: rows.map(toCustomer), total: Number(counted?.total ?? 0) }
      }
      // the count and the page from one snapshot, so hasMore agrees with the rows
      return db.transaction(read)
    },

    /** Applies the given fields, keeping the others; null when there is no such live customer. */
    async updateCustomer(studioId: string, id: string, changes: CustomerChanges): Promise<Customer | null> {
      if (!isUuid(id)) return null
      const pairs = columnValues(changes)
      const params: unknown[] = [id, studioId, ...pairs.map(([, value]) => value)]
      const assignments = pairs.map(([column], i) => `${column} = $${i + 3}`)
      // a change that sets nothing leaves updatedAt as it was
      const set = assignments.length > 0 ? `${assignments.join(', ')}, updated_at = statement_timestamp()` : 'id = id'
      return named(studioId, changes.legalName, async () => {
        const [row] = await db.query<CustomerRow>(`UPDATE customers SET ${set} WHERE id = $1 AND studio_id = $2 AND deleted_at IS NULL RETURNING ${columns}`, params)
        return row ? toCustomer(row) : null
      })
    },

    /** Marks the customer deleted: its invoices and their issued metadata stay (SPEC 4.13), and its
     * name stays taken. Whether there was a live customer to delete. */
    async deleteCustomer(studioId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false
      const rows = await db.query<{ id: string }>(
        'UPDATE customers SET deleted_at = statement_timestamp() WHERE id = $1 AND studio_id = $2 AND deleted_at IS NULL RETURNING id',
        [id, studioId],
      )
      return rows.length > 0
    },
  }
}

export type CustomerStore = ReturnType<typeof createCustomerStore>
