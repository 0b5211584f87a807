import { randomBytes } from 'node:crypto'
import { getAddress } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import { useInProcessApp } from '../support/inProcessApp'
import { answerOf, signedRequest, type Answer, type SignedRequest } from '../support/signedRequest'

const app = useInProcessApp()
const base = 'http://127.0.0.1'

type Key = { keyId: string; secret: string }
const randomAddress = () => privateKeyToAddress(`0x${randomBytes(32).toString('hex')}`)

/** A studio of its own, so that each test's names and lists are its own, with a key of these scopes. */
async function studioWithKey(scopes: string[] = ['customer:write']): Promise<{ studioId: string; key: Key }> {
  const studio = await app.stores.studios.createStudio({ name: 'Customers test', vaultAddress: randomAddress(), chainId: 31337 })
  return { studioId: studio.id, key: await keyFor(studio.id, scopes) }
}

async function keyFor(studioId: string, scopes: string[]): Promise<Key> {
  const { keyId, secret } = await app.stores.apiKeys.createApiKey({ studioId, name: scopes.join(' '), scopes })
  return { keyId, secret }
}

const send = (key: Key, request: SignedRequest) => signedRequest(base, key, request, app.fetch)
const create = (key: Key, body: unknown) => send(key, { method: 'POST', path: '/v1/customers', body: JSON.stringify(body) })
const patch = (key: Key, id: string, body: unknown) => send(key, { method: 'PATCH', path: `/v1/customers/${id}`, body: JSON.stringify(body) })
const read = (key: Key, id: string) => send(key, { method: 'GET', path: `/v1/customers/${id}` })
const remove = (key: Key, id: string) => send(key, { method: 'DELETE', path: `/v1/customers/${id}` })
const list = (key: Key, query = '') => send(key, { method: 'GET', path: '/v1/customers', query })

const acme = {
  type: 'entity',
  legalName: 'Acme Robotics GmbH',
  email: 'accounts@acme-robotics.example',
  address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
  registrationNumber: 'HRB 123456',
  vatNumber: 'DE123456789',
}

const person = (legalName: string, email = `${legalName.toLowerCase().replace(/\W+/g, '.')}@mail.example`) => ({
  type: 'person',
  legalName,
  email,
  address: { street: '1 Rue de Rivoli', city: 'Paris', postal: '75001', country: 'FR' },
})

function expectValidation(answer: Answer, path: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400)
  expect(answer.body.error).toBe('VALIDATION_ERROR')
  expect(answer.body.details.map((issue: { path: string }) => issue.path)).toContain(path)
}

describe('customers: the whole loop a merchant backend runs (SPEC 4.13)', () => {
  test('default: create, read, list, change and delete a customer; the answers carry every SPEC 2.7 field', async () => {
    const { studioId, key } = await studioWithKey()
    const wallet = randomAddress()
    const created = await create(key, { ...acme, walletAddress: wallet.toLowerCase(), notes: 'Net 30' })
    expect(created.status).toBe(201)
    const customer = created.body.data
    expect(customer).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      studioId,
      type: 'entity',
      legalName: 'Acme Robotics GmbH',
      email: 'accounts@acme-robotics.example',
      address: { street: 'Lindenstraße 4', city: 'Berlin', postal: '10969', country: 'DE' },
      registrationNumber: 'HRB 123456',
      tradeName: null,
      taxId: null,
      vatNumber: 'DE123456789',
      notes: 'Net 30',
      walletAddress: getAddress(wallet),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(customer.createdAt).toBe(customer.updatedAt)
    expect(customer).not.toHaveProperty('metadata')

    expect(await read(key, customer.id)).toMatchObject({ status: 200, body: { data: customer } })
    expect((await list(key)).body).toEqual({ data: [customer], meta: { total: 1, limit: 25, offset: 0, hasMore: false } })

    const changed = await patch(key, customer.id, { email: 'ap@acme-robotics.example', tradeName: 'Acme' })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toEqual({ ...customer, email: 'ap@acme-robotics.example', tradeName: 'Acme', updatedAt: expect.any(String) })
    expect(Date.parse(changed.body.data.updatedAt)).toBeGreaterThan(Date.parse(customer.updatedAt))

    const deleted = await remove(key, customer.id)
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBe('')
    expect(await read(key, customer.id)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', code: 'NOT_FOUND' } })
    expect((await list(key)).body.meta.total).toBe(0)
    expect(await remove(key, customer.id)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect(await patch(key, customer.id, { notes: 'late' })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
  })
})

describe('GET /v1/customers', () => {

  test('behavior: the decimal cursor pages through every customer exactly once, oldest first', async () => {
    const { key } = await studioWithKey()
    const names = Array.from({ length: 7 }, (_, i) => `Pager ${i}`)
    for (const name of names) expect((await create(key, person(name))).status).toBe(201)
    const seen: string[] = []
    const metas: unknown[] = []
    let cursor: number | undefined
    for (let pages = 0; pages < 10; pages++) {
      const answer = await list(key, `limit=3${cursor === undefined ? '' : `&cursor=${cursor}`}`)
      expect(answer.status).toBe(200)
      seen.push(...answer.body.data.map((customer: { legalName: string }) => customer.legalName))
      metas.push(answer.body.meta)
      if (!answer.body.meta.hasMore) break
      cursor = answer.body.meta.offset + answer.body.data.length
    }
    expect(seen).toEqual(names)
    expect(metas).toEqual([
      { total: 7, limit: 3, offset: 0, hasMore: true },
      { total: 7, limit: 3, offset: 3, hasMore: true },
      { total: 7, limit: 3, offset: 6, hasMore: false },
    ])
    expect((await list(key, 'cursor=7')).body).toEqual({ data: [], meta: { total: 7, limit: 25, offset: 7, hasMore: false } })
    expect((await list(key, 'limit=100')).body.data).toHaveLength(7)
  })

  test('behavior: search finds part of the name or email in any case; type and walletAddress filter; % is a character', async () => {
    const { key } = await studioWithKey()
    const wallet = randomAddress()
    const entity = (await create(key, acme)).body.data
    const ada = (await create(key, { ...person('Ada Lovelace', 'ada@engines.example'), walletAddress: wallet })).body.data
    const percent = (await create(key, person('100% Cotton', 'cotton@shop.example'))).body.data
    const names = async (query: string) => (await list(key, query)).body.data.map((customer: { id: string }) => customer.id)
    expect(await names('search=ROBOTICS')).toEqual([entity.id])
    expect(await names('search=%20acme%20%20robotics%20')).toEqual([entity.id])
    expect(await names('search=ENGINES.example')).toEqual([ada.id])
    expect(await names('search=%25')).toEqual([percent.id])
    expect(await names('search=nobody')).toEqual([])
    expect(await names('type=person')).toEqual([ada.id, percent.id])
    expect(await names('type=entity')).toEqual([entity.id])
    expect(await names(`walletAddress=${wallet.toLowerCase()}`)).toEqual([ada.id])
    expect(await names(`walletAddress=${randomAddress()}`)).toEqual([])
    expect((await list(key, 'type=person&search=lovelace')).body).toMatchObject({ data: [{ id: ada.id }], meta: { total: 1 } })
  })
})

describe('POST /v1/customers', () => {
  test('behavior: a name in use, in any case or spacing, is a 409 with the existing id, on create and on rename', async () => {
    const { key } = await studioWithKey()
    const existing = (await create(key, acme)).body.data
    const again = await create(key, { ...acme, legalName: '  acme   ROBOTICS gmbh ', email: 'other@acme.example' })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: 'CUSTOMER_EXISTS', code: 'CUSTOMER_EXISTS', existingCustomerId: existing.id })
    const other = (await create(key, person('Grace Hopper'))).body.data
    const rename = await patch(key, other.id, { legalName: 'ACME Robotics GmbH' })
    expect(rename.status).toBe(409)
    expect(rename.body).toMatchObject({ code: 'CUSTOMER_EXISTS', existingCustomerId: existing.id })
    expect((await read(key, other.id)).body.data.legalName).toBe('Grace Hopper')
    // its own name, in another case, is no conflict
    expect((await patch(key, existing.id, { legalName: 'ACME Robotics GmbH' })).body.data.legalName).toBe('ACME Robotics GmbH')
    expect((await list(key)).body.meta.total).toBe(2)
  })

  test('behavior: another studio may use the same name', async () => {
    const first = await studioWithKey()
    const second = await studioWithKey()
    expect((await create(first.key, acme)).status).toBe(201)
    expect((await create(second.key, acme)).status).toBe(201)
  })

  test('behavior: two creates racing for one name make one customer', async () => {
    const { key } = await studioWithKey()
    const answers = await Promise.all(Array.from({ length: 4 }, () => create(key, person('Race Condition Ltd'))))
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409])
    const winner = answers.find((answer) => answer.status === 201)!.body.data.id
    for (const answer of answers.filter((answer) => answer.status === 409)) expect(answer.body.existingCustomerId).toBe(winner)
  })
})

describe('DELETE /v1/customers/:id', () => {
  test("behavior: a deleted customer's name stays taken, and the 409 names no id", async () => {
    const { key } = await studioWithKey()
    const gone = (await create(key, person('Former Client'))).body.data
    expect((await remove(key, gone.id)).status).toBe(204)
    const again = await create(key, person('former client'))
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'CUSTOMER_EXISTS', existingCustomerId: null })
    const other = (await create(key, person('Current Client'))).body.data
    expect((await patch(key, other.id, { legalName: 'Former Client' })).body).toMatchObject({ code: 'CUSTOMER_EXISTS', existingCustomerId: null })
  })
})

describe('PATCH /v1/customers/:id', () => {
  let key: Key
  let entity: any
  let individual: any
  beforeAll(async () => {
    ;({ key } = await studioWithKey())
    entity = (await create(key, { ...acme, tradeName: 'Acme', notes: 'keep me' })).body.data
    individual = (await create(key, { ...person('Alan Turing'), taxId: '12 345 678 901' })).body.data
  })

  test('behavior: type cannot change, unknown fields, null and a partial address are refused, and nothing changes', async () => {
    expectValidation(await patch(key, entity.id, { type: 'person' }), 'body.type')
    expectValidation(await patch(key, entity.id, { nickname: 'Acme' }), 'body')
    expectValidation(await patch(key, entity.id, { notes: null }), 'body.notes')
    expectValidation(await patch(key, entity.id, { vatNumber: null }), 'body.vatNumber')
    expectValidation(await patch(key, entity.id, { address: { city: 'Hamburg' } }), 'body.address.street')
    expectValidation(await patch(key, entity.id, { address: null }), 'body.address')
    expectValidation(await patch(key, entity.id, { metadata: { tier: 'gold' } }), 'body.metadata')
    expect((await read(key, entity.id)).body.data).toEqual(entity)
  })

  test('behavior: omitted fields are kept; a whole address replaces the old; an optional text sent empty is cleared', async () => {
    const address = { street: 'Jungfernstieg 1', city: 'Hamburg', postal: '20095', country: 'de' }
    const changed = await patch(key, entity.id, { address, vatNumber: '' })
    expect(changed.status).toBe(200)
    expect(changed.body.data).toEqual({ ...entity, address: { ...address, country: 'DE' }, vatNumber: null, updatedAt: changed.body.data.updatedAt })
    expect(changed.body.data.notes).toBe('keep me')
  })

  test("behavior: the stored type's rules hold: an entity keeps a registration number, a person has no trade name", async () => {
    expectValidation(await patch(key, entity.id, { registrationNumber: '' }), 'body.registrationNumber')
    expectValidation(await patch(key, entity.id, { taxId: '123' }), 'body.taxId')
    expectValidation(await patch(key, individual.id, { tradeName: 'Turing Machines' }), 'body.tradeName')
    expect((await patch(key, individual.id, { taxId: '' })).body.data.taxId).toBeNull()
    expect((await patch(key, entity.id, { registrationNumber: 'HRB 654321' })).body.data.registrationNumber).toBe('HRB 654321')
  })
})

describe('GET /v1/customers/:id', () => {
  test("behavior: another studio's customer is a 404 to read, change or delete, and absent from its list", async () => {
    const owner = await studioWithKey()
    const stranger = await studioWithKey()
    const customer = (await create(owner.key, acme)).body.data
    for (const answer of [await read(stranger.key, customer.id), await patch(stranger.key, customer.id, { notes: 'mine' }), await remove(stranger.key, customer.id)]) {
      expect(answer).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', code: 'NOT_FOUND' } })
    }
    expect((await list(stranger.key)).body.meta.total).toBe(0)
    expect((await read(owner.key, customer.id)).body.data).toEqual(customer)
  })
})

describe('customers: who may read and write them (SPEC 5.5, 5.6)', () => {
  test('behavior: scopes: invoice scopes reach no customer; customer:read reads only; customer:write and legacy write write; legacy read reads', async () => {
    const { studioId, key: writer } = await studioWithKey(['customer:write'])
    const customer = (await create(writer, person('Scoped Person'))).body.data
    const keys = {
      invoiceOnly: await keyFor(studioId, ['invoice:read', 'invoice:write']),
      reader: await keyFor(studioId, ['customer:read']),
      legacyRead: await keyFor(studioId, ['read']),
      legacyWrite: await keyFor(studioId, ['write']),
      sponsor: await keyFor(studioId, ['sponsor']),
    }
    const forbidden = { status: 403, body: { error: 'FORBIDDEN', code: 'FORBIDDEN' } }
    for (const key of [keys.invoiceOnly, keys.sponsor]) {
      expect(await list(key)).toMatchObject(forbidden)
      expect(await read(key, customer.id)).toMatchObject(forbidden)
      expect(await create(key, person('Not Allowed'))).toMatchObject(forbidden)
    }
    for (const key of [keys.reader, keys.legacyRead, writer]) {
      expect((await list(key)).status).toBe(200)
      expect((await read(key, customer.id)).status).toBe(200)
    }
    for (const key of [keys.reader, keys.legacyRead]) {
      expect(await create(key, person('Not Allowed'))).toMatchObject(forbidden)
      expect(await patch(key, customer.id, { notes: 'no' })).toMatchObject(forbidden)
      expect(await remove(key, customer.id)).toMatchObject(forbidden)
    }
    expect((await create(keys.legacyWrite, person('Legacy Written'))).status).toBe(201)
    expect((await patch(keys.legacyWrite, customer.id, { notes: 'legacy' })).body.data.notes).toBe('legacy')
    expect((await list(writer)).body.meta.total).toBe(2)
    // the in-process app's own key holds invoice scopes only
    expect(await list(app.apiKey)).toMatchObject(forbidden)
  })

  test('behavior: without HMAC headers, or signed over other bytes, a 401 and nothing stored', async () => {
    const { key } = await studioWithKey()
    const body = JSON.stringify(person('Unsigned'))
    const bare = await answerOf(await app.fetch(`${base}/v1/customers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
    expect(bare).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    const tampered = await send(key, { method: 'POST', path: '/v1/customers', body, send: { body: JSON.stringify(person('Tampered')) } })
    expect(tampered.status).toBe(401)
    expect((await list(key)).body.meta.total).toBe(0)
  })
})

describe('customers: bad input is a 4xx with its code (SPEC 7.1-7.3)', () => {
  test('behavior: every incomplete or malformed create is a VALIDATION_ERROR at its field, and nothing is stored', async () => {
    const { key } = await studioWithKey()
    const { address: _, ...noAddress } = acme
    const { registrationNumber: __, ...noRegistration } = acme
    const cases: [unknown, string][] = [
      [{ ...acme, type: 'company' }, 'body.type'],
      [{ ...acme, type: undefined }, 'body.type'],
      [{ ...acme, legalName: '   ' }, 'body.legalName'],
      [{ ...acme, legalName: 'x'.repeat(201) }, 'body.legalName'],
      [{ ...acme, email: 'not-an-email' }, 'body.email'],
      [noAddress, 'body.address'],
      [{ ...acme, address: { ...acme.address, country: 'UK' } }, 'body.address.country'],
      [{ ...acme, address: { ...acme.address, country: 'EU' } }, 'body.address.country'],
      [{ ...acme, address: { ...acme.address, postal: '' } }, 'body.address.postal'],
      [{ ...acme, address: { ...acme.address, floor: 3 } }, 'body.address'],
      [noRegistration, 'body.registrationNumber'],
      [{ ...acme, registrationNumber: '  ' }, 'body.registrationNumber'],
      [{ ...acme, taxId: '123' }, 'body.taxId'],
      [{ ...person('Someone'), tradeName: 'Shop' }, 'body.tradeName'],
      [{ ...acme, walletAddress: '0x1234' }, 'body.walletAddress'],
      // mixed case that is not the checksum: a typo, not an address
      [{ ...acme, walletAddress: '0xAbCdEf0000000000000000000000000000000000' }, 'body.walletAddress'],
      [{ ...acme, metadata: { tier: 'gold' } }, 'body.metadata'],
      [{ ...acme, vatNumber: null }, 'body.vatNumber'],
      [{ ...acme, id: '00000000-0000-4000-8000-000000000000' }, 'body'],
      [[acme], 'body'],
    ]
    for (const [body, path] of cases) expectValidation(await create(key, body), path)
    expectValidation(await send(key, { method: 'POST', path: '/v1/customers', body: '{"type":' }), 'body')
    const asText = await send(key, { method: 'POST', path: '/v1/customers', body: JSON.stringify(acme), contentType: 'text/plain' })
    expect(asText).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } })
    expect((await list(key)).body.meta.total).toBe(0)
  })

  test('behavior: malformed filters, limits, cursors and ids are VALIDATION_ERRORs', async () => {
    const { key } = await studioWithKey()
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=2.5', 'limit'],
      ['cursor=-1', 'cursor'],
      ['cursor=abc', 'cursor'],
      ['cursor=01', 'cursor'],
      ['type=company', 'type'],
      ['walletAddress=0x12', 'walletAddress'],
      ['search=', 'search'],
      ['page=2', ''],
      ['limit=1&limit=2', 'limit'],
    ] as const) {
      const answer = await list(key, query)
      expect(answer.status, query).toBe(400)
      expect(answer.body.error).toBe('VALIDATION_ERROR')
      if (path) expect(answer.body.details.map((issue: { path: string }) => issue.path), query).toContain(path)
    }
    for (const answer of [await read(key, 'not-a-uuid'), await patch(key, '42', { notes: 'x' }), await remove(key, 'x')]) expectValidation(answer, 'id')
    expect(await read(key, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    const put = await send(key, { method: 'PUT', path: '/v1/customers/00000000-0000-4000-8000-000000000000', body: '{}' })
    expect(put).toMatchObject({ status: 405, body: { code: 'METHOD_NOT_ALLOWED' } })
  })
})
