import { randomBytes } from 'node:crypto'
import { bytesToHex, getAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { hasCode } from '../../shared/codedError'
import { createCustomerStore, customerNameKey, type CustomerStore, type NewCustomer } from '../../server/merchant/customers/customerStore'
import { QueryError, type Database } from '../../server/store/database'
import { createStudioStore } from '../../server/store/studioStore'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const randomVault = () => getAddress(bytesToHex(randomBytes(20)))

const customer = (legalName: string, fields: Partial<NewCustomer> = {}): NewCustomer => ({
  type: 'person',
  legalName,
  email: 'someone@mail.example',
  address: { street: 'Calle Mayor 1', city: 'Madrid', postal: '28013', country: 'ES' },
  ...fields,
})

describe('customerNameKey', () => {
  test('behavior: case, spacing and composed or decomposed accents make no other name', () => {
    expect(customerNameKey('  Müller   & Söhne  ')).toBe('müller & söhne')
    expect(customerNameKey('MU\u0308LLER & SÖHNE')).toBe(customerNameKey('Müller & Söhne'))
    expect(customerNameKey('Müller & Sohne')).not.toBe(customerNameKey('Müller & Söhne'))
  })
})

describe.each(backends)('customer store on %s', (backend) => {
  let db: Database
  let second: Database
  let customers: CustomerStore
  let studioId: string
  beforeAll(async () => {
    ;[db, second] = await databases.openTwo(backend)
    customers = createCustomerStore(db)
    studioId = (await createStudioStore(db).createStudio({ vaultAddress: randomVault(), chainId: 31337 })).id
  })

  test('behavior: a name is taken in any case, accent form and spacing, also once its customer is deleted', async () => {
    const first = await customers.createCustomer(studioId, customer('Éclair Café'))
    const clash = await customers.createCustomer(studioId, customer(' E\u0301CLAIR  CAFÉ ')).catch((error: unknown) => error)
    expect(hasCode(clash, 'CUSTOMER_EXISTS') && clash.details).toEqual({ existingCustomerId: first.id })
    expect(await customers.deleteCustomer(studioId, first.id)).toBe(true)
    expect(await customers.getCustomer(studioId, first.id)).toBeNull()
    const afterDelete = await customers.createCustomer(studioId, customer('éclair café')).catch((error: unknown) => error)
    expect(hasCode(afterDelete, 'CUSTOMER_EXISTS') && afterDelete.details).toEqual({ existingCustomerId: null })
    expect(await customers.findCustomerByName(studioId, 'Éclair Café')).toBeNull()
  })

  test('behavior: two instances creating one name at once make one customer; the other is told its id', async () => {
    const racers = [customers, createCustomerStore(second)]
    const outcomes = await Promise.allSettled(racers.flatMap((store) => [store.createCustomer(studioId, customer('Racing Ltd')), store.createCustomer(studioId, customer('racing ltd'))]))
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled')
    expect(created).toHaveLength(1)
    const id = (created[0] as PromiseFulfilledResult<{ id: string }>).value.id
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect(hasCode(outcome.reason, 'CUSTOMER_EXISTS') && outcome.reason.details).toEqual({ existingCustomerId: id })
    }
  })

  test("behavior: the table refuses a change of type and an entity without a registration number, whoever writes", async () => {
    const entity = await customers.createCustomer(studioId, customer('Typed GmbH', { type: 'entity', registrationNumber: 'HRB 1' }))
    await expect(db.query("UPDATE customers SET type = 'person' WHERE id = $1", [entity.id])).rejects.toBeInstanceOf(QueryError)
    await expect(db.query('UPDATE customers SET registration_number = NULL WHERE id = $1', [entity.id])).rejects.toBeInstanceOf(QueryError)
    expect((await customers.getCustomer(studioId, entity.id))?.type).toBe('entity')
  })

  test('behavior: a page counts every match; LIKE characters in a search are searched for; another studio sees none', async () => {
    const own = (await createStudioStore(db).createStudio({ vaultAddress: randomVault(), chainId: 31337 })).id
    for (const name of ['50% Off Ltd', '50 Percent Ltd', 'Under_score', 'Underscore']) await customers.createCustomer(own, customer(name))
    const page = await customers.listCustomers(own, {}, { limit: 3, offset: 0 })
    expect(page.total).toBe(4)
    expect(page.customers.map((found) => found.legalName)).toEqual(['50% Off Ltd', '50 Percent Ltd', 'Under_score'])
    expect((await customers.listCustomers(own, { search: '50%' }, { limit: 25, offset: 0 })).customers.map((found) => found.legalName)).toEqual(['50% Off Ltd'])
    expect((await customers.listCustomers(own, { search: 'under_' }, { limit: 25, offset: 0 })).customers.map((found) => found.legalName)).toEqual(['Under_score'])
    const other = (await createStudioStore(db).createStudio({ vaultAddress: randomVault(), chainId: 31337 })).id
    expect(await customers.listCustomers(other, { search: '50' }, { limit: 25, offset: 0 })).toEqual({ customers: [], total: 0 })
    const [first] = page.customers
    expect(await customers.getCustomer(other, first!.id)).toBeNull()
    expect(await customers.updateCustomer(other, first!.id, { notes: 'not mine' })).toBeNull()
    expect(await customers.deleteCustomer(other, first!.id)).toBe(false)
  })
})
