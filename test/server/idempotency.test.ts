import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Hono } from 'hono'
import { keccak256, toHex, type Hex } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { BundlerRejectedError, BundlerUnavailableError } from '../../server/chain/bundler'
import { errorHandler } from '../../server/http/errorHandler'
import { silentLogger } from '../../server/http/logger'
import { dueAtOf } from '../../server/merchant/idempotency/dueAtOf'
import { readIdempotencyKey } from '../../server/merchant/idempotency/idempotencyKey'
import { createIdempotencyStore, type IdempotencyScope, type IdempotencyStore } from '../../server/merchant/idempotency/idempotencyStore'
import { issueFingerprint, type IssueDue } from '../../server/merchant/idempotency/issueFingerprint'
import { runIdempotent, type IdempotentSteps } from '../../server/merchant/idempotency/runIdempotent'
import { answerIdempotently } from '../../server/merchant/idempotency/answerIdempotently'
import type { Database } from '../../server/store/database'
import { migrations } from '../../server/store/migrations'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const chainId = 31337
const route = 'invoices.issue'
const customerId = '0b6f0a5e-2d55-4b8e-8a37-1c1d2e3f4a5b'
let serial = 0
const hashOf = (what: string): Hex => keccak256(toHex(`${what} ${++serial}`))

type IssueBody = { customerId: string; amount: string; dueAt?: string | undefined; dueDays?: number | undefined; description?: string; sendEmail?: boolean }
type Work = { dueAt: string }
type Answer = { id: string; status: 'Issued'; dueAt: string; userOpHash: Hex; txHash: Hex }

/**
 * What an issuance route does around its chain steps, in miniature: the steps are the chain as the
 * route sees it (an operation sent, found on-chain later or not, then finalized), with counters, and
 * switches that make each step fail, hang or stay pending the way a bundler, a node or a store does.
 */
function issuer() {
  const calls = { submit: 0, poll: 0, finalize: 0 }
  const chain = new Map<Hex, { invoiceId: bigint; txHash: Hex }>()
  const anchors: Date[] = []
  let nextInvoiceId = 1n
  const behaviour: { pending?: boolean; finalizeFails?: boolean; sendError?: Error | undefined; landsAnyway?: boolean; keepHash?: boolean; hold?: Promise<void> } = {}
  const steps = (due: IssueDue): IdempotentSteps<Work, Answer> => ({
    async submit({ anchor, submissionBegins }) {
      calls.submit++
      anchors.push(anchor)
      await behaviour.hold
      const userOpHash = hashOf('operation')
      await submissionBegins({ dueAt: dueAtOf(due, anchor).toString() }, behaviour.keepHash ? userOpHash : undefined)
      // the bundler's answer lost on the way, with the operation sent or not
      if (behaviour.sendError && !behaviour.landsAnyway) throw behaviour.sendError
      chain.set(userOpHash, { invoiceId: nextInvoiceId++, txHash: hashOf('transaction') })
      if (behaviour.sendError) throw behaviour.sendError
      return { userOpHash }
    },
    async poll({ userOpHash }) {
      calls.poll++
      const included = chain.get(userOpHash)
      if (behaviour.pending || !included) return { status: 'pending' }
      return { status: 'included', ...included }
    },
    async finalize({ userOpHash, invoiceId, txHash, work }) {
      calls.finalize++
      if (behaviour.finalizeFails) throw new Error('the metadata store is down')
      return { id: invoiceId.toString(), status: 'Issued', dueAt: work.dueAt, userOpHash, txHash }
    },
  })
  return { calls, chain, anchors, behaviour, steps, issued: () => nextInvoiceId - 1n }
}

type Issuer = ReturnType<typeof issuer>

const fingerprintOf = (studioId: string, body: IssueBody) =>
  issueFingerprint({
    studioId,
    chainId,
    customerId: body.customerId,
    amount: BigInt(body.amount),
    due: dueOf(body),
    description: body.description,
    sendEmail: body.sendEmail ?? false,
  })
const dueOf = (body: IssueBody): IssueDue => (body.dueAt !== undefined ? { dueAt: BigInt(body.dueAt) } : { dueDays: body.dueDays ?? 0 })

/** One server instance's POST /v1/invoices/issue over `store`, answered through the project's error handler. */
function instance(store: IdempotencyStore, chain: Issuer, { studioId, required = true, leaseMs = 5_000 }: { studioId: string; required?: boolean; leaseMs?: number }) {
  const app = new Hono()
  app.onError(errorHandler(silentLogger))
  app.post('/v1/invoices/issue', async (c) => {
    const key = readIdempotencyKey(c.req.header('Idempotency-Key'), { required })
    const body = await c.req.json<IssueBody>()
    const answer = await runIdempotent(store, { scope: { studioId, chainId, route }, key, fingerprint: fingerprintOf(studioId, body), leaseMs }, chain.steps(dueOf(body)))
    return c.json(answer, answer.status === 'pending' ? 202 : 200)
  })
  return async (body: IssueBody, key?: string) => {
    const response = await app.request('/v1/invoices/issue', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
}

const body = (overrides: Partial<IssueBody> = {}): IssueBody => ({ customerId, amount: '248000000', dueDays: 30, description: 'Harbour consulting, November', ...overrides })

test('behavior: migration 13 creates idempotency_records exactly as SCHEMA.sql, which says what its states mean', () => {
  const words = (sql: string) => sql.replace(/--.*$/gm, '').replace(/;\s*$/, '').split(/\s+/).filter(Boolean).join(' ')
  const schema = readFileSync(new URL('../../server/merchant/idempotency/SCHEMA.sql', import.meta.url), 'utf8')
  const created = migrations.find((step) => step.version === 13)?.statements.find((statement) => statement.includes('CREATE TABLE idempotency_records'))
  expect(words(created ?? '')).toBe(words(schema))
})

describe.each(backends)('%s', (backend) => {
  let stores: [IdempotencyStore, IdempotencyStore]
  let db: Database
  /** The lease on `key` ends now: what a killed request's lease does once its time has passed. */
  let leaseRunsOut: (key: string) => Promise<void>
  beforeAll(async () => {
    // migrated: idempotency_records is migration 13's
    const [one, two] = await databases.openTwo(backend)
    db = one
    // two server instances on one database: two pools on PostgreSQL
    stores = [createIdempotencyStore(one), createIdempotencyStore(two)]
    leaseRunsOut = async (key) => void (await db.query(`UPDATE idempotency_records SET lease_until = statement_timestamp() - interval '1 second' WHERE idempotency_key = $1`, [key]))
  })
  const scopeOf = (studioId: string): IdempotencyScope => ({ studioId, chainId, route })

  test('behavior: the same key twice issues one invoice; the retry is the stored answer with replayed: true', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    const first = await post(body(), key)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ id: '1', status: 'Issued', idempotency: { key, replayed: false, state: 'confirmed' } })
    const second = await post(body(), key)
    expect(second).toEqual({ status: 200, body: { ...first.body, idempotency: { key, replayed: true, state: 'confirmed' } } })
    expect(chain.calls).toEqual({ submit: 1, poll: 1, finalize: 1 })
    expect(chain.issued()).toBe(1n)
  })

  test('behavior: the same key with another payload is refused with IDEMPOTENCY_CONFLICT (409); a space more in the description is another payload', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    expect((await post(body(), key)).status).toBe(200)
    for (const other of [body({ description: 'Harbour consulting, November ' }), body({ amount: '248000001' }), body({ dueDays: undefined, dueAt: '1767225600' }), body({ sendEmail: true })]) {
      const refused = await post(other, key)
      expect(refused).toEqual({ status: 409, body: { error: 'IDEMPOTENCY_CONFLICT', code: 'IDEMPOTENCY_CONFLICT', message: expect.stringContaining('different request') } })
    }
    expect(chain.calls.submit).toBe(1)
  })

  test('behavior: a key is the studio\'s own: the same key in another studio is another invoice', async () => {
    const chain = issuer()
    const key = randomUUID()
    const a = await instance(stores[0], chain, { studioId: randomUUID() })(body(), key)
    const b = await instance(stores[1], chain, { studioId: randomUUID() })(body(), key)
    expect([a.body.id, b.body.id]).toEqual(['1', '2'])
    expect([a.body.idempotency, b.body.idempotency]).toEqual([
      { key, replayed: false, state: 'confirmed' },
      { key, replayed: false, state: 'confirmed' },
    ])
  })

  test('behavior: a retry while the first request still works, on another instance, gets IDEMPOTENCY_LEASE_CONTENTION (409) and later its answer', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const [one, two] = [instance(stores[0], chain, { studioId }), instance(stores[1], chain, { studioId })]
    let release!: () => void
    chain.behaviour.hold = new Promise((resolve) => (release = resolve))
    const key = randomUUID()
    const first = one(body(), key)
    await expect.poll(() => chain.calls.submit).toBe(1)
    const busy = await two(body(), key)
    expect(busy).toEqual({ status: 409, body: { error: 'IDEMPOTENCY_LEASE_CONTENTION', code: 'IDEMPOTENCY_LEASE_CONTENTION', message: expect.stringContaining('retry with the same key') } })
    release()
    expect((await first).body).toMatchObject({ id: '1', idempotency: { replayed: false } })
    expect((await two(body(), key)).body).toMatchObject({ id: '1', idempotency: { replayed: true, state: 'confirmed' } })
    expect(chain.issued()).toBe(1n)
  })

  test('behavior: eight requests racing one new key across two instances: one issues, seven are told it is in progress', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const posts = [instance(stores[0], chain, { studioId }), instance(stores[1], chain, { studioId })]
    const key = randomUUID()
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => posts[i % 2]!(body(), key)))
    const statuses = answers.map((answer) => answer.status).sort()
    // a request that comes after the first finished is replayed instead: either way one invoice
    expect(statuses.filter((status) => status === 409).length + answers.filter((answer) => (answer.body.idempotency as { replayed?: boolean } | undefined)?.replayed).length).toBe(7)
    for (const answer of answers.filter((answer) => answer.status === 409)) expect(answer.body.code).toBe('IDEMPOTENCY_LEASE_CONTENTION')
    expect(chain.calls.submit).toBe(1)
    expect(chain.issued()).toBe(1n)
  })

  test('behavior: a request that died before sending (its lease ran out) is taken over by a retry, which builds the operation once', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const post = instance(stores[1], chain, { studioId })
    const key = randomUUID()
    // the first instance took the key, then was killed: nothing more from it
    // a lease long enough that the contention below never depends on the machine's speed; its end is
    // then brought forward, as time passing would
    const dead = await stores[0].claim({ scope: scopeOf(studioId), key, fingerprint: fingerprintOf(studioId, body()), leaseMs: 60_000 })
    expect((await post(body(), key)).body.code).toBe('IDEMPOTENCY_LEASE_CONTENTION')
    await leaseRunsOut(key)
    const taken = await post(body(), key)
    expect(taken.body).toMatchObject({ id: '1', idempotency: { key, replayed: false, state: 'confirmed' } })
    expect(chain.calls.submit).toBe(1)
    // the dead instance waking up changes nothing
    if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
    await expect(stores[0].beginSubmission(dead.lease, { dueAt: '0' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_LEASE_CONTENTION' })
    expect((await stores[0].read(scopeOf(studioId), key))?.state).toBe('confirmed')
  })

  test('behavior: a request killed after the bundler took its operation: the retry repolls that operation and never builds another', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const key = randomUUID()
    const dead = await stores[0].claim({ scope: scopeOf(studioId), key, fingerprint: fingerprintOf(studioId, body()), leaseMs: 60_000 })
    if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
    const userOpHash = hashOf('operation')
    chain.chain.set(userOpHash, { invoiceId: 41n, txHash: hashOf('transaction') })
    await stores[0].beginSubmission(dead.lease, { dueAt: '1767225600' })
    await stores[0].recordSubmitted(dead.lease, userOpHash)
    // the dead request's lease runs out, brought forward as time passing would
    await leaseRunsOut(key)
    const retried = await instance(stores[1], chain, { studioId })(body(), key)
    expect(retried.body).toMatchObject({ id: '41', userOpHash, dueAt: '1767225600', idempotency: { replayed: true, state: 'confirmed' } })
    expect(chain.calls).toEqual({ submit: 0, poll: 1, finalize: 1 })
  })

  test('behavior: a request killed between inclusion and finalization: the retry finalizes that invoice only', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const key = randomUUID()
    const dead = await stores[0].claim({ scope: scopeOf(studioId), key, fingerprint: fingerprintOf(studioId, body()), leaseMs: 60_000 })
    if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
    const userOpHash = hashOf('operation')
    const txHash = hashOf('transaction')
    await stores[0].beginSubmission(dead.lease, { dueAt: '1767225600' })
    await stores[0].recordSubmitted(dead.lease, userOpHash)
    await stores[0].recordIncluded(dead.lease, 7n, txHash)
    // the dead request's lease runs out, brought forward as time passing would
    await leaseRunsOut(key)
    const retried = await instance(stores[1], chain, { studioId })(body(), key)
    expect(retried).toEqual({ status: 200, body: { id: '7', status: 'Issued', dueAt: '1767225600', userOpHash, txHash, idempotency: { key, replayed: true, state: 'confirmed' } } })
    expect(chain.calls).toEqual({ submit: 0, poll: 0, finalize: 1 })
  })

  test('behavior: a submission that began and left no hash is never rebuilt: IDEMPOTENCY_SUBMISSION_UNCERTAIN (409), after a kill or a lost answer from the bundler', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const post = instance(stores[0], chain, { studioId })
    // killed while handing the operation to the bundler
    const killedKey = randomUUID()
    const dead = await stores[1].claim({ scope: scopeOf(studioId), key: killedKey, fingerprint: fingerprintOf(studioId, body()), leaseMs: 60_000 })
    if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
    await stores[1].beginSubmission(dead.lease, { dueAt: '1767225600' })
    expect((await post(body(), killedKey)).body.code).toBe('IDEMPOTENCY_LEASE_CONTENTION')
    await leaseRunsOut(killedKey)
    const uncertain = await post(body(), killedKey)
    expect(uncertain).toEqual({ status: 409, body: { error: 'IDEMPOTENCY_SUBMISSION_UNCERTAIN', code: 'IDEMPOTENCY_SUBMISSION_UNCERTAIN', message: expect.stringContaining('will not build it again') } })
    // the bundler's answer lost on the way: sent or not, nobody knows
    const lostKey = randomUUID()
    chain.behaviour.sendError = new BundlerUnavailableError('the bundler did not answer')
    expect((await post(body(), lostKey)).status).toBe(503)
    chain.behaviour.sendError = undefined
    expect((await post(body(), lostKey)).body.code).toBe('IDEMPOTENCY_SUBMISSION_UNCERTAIN')
    expect(chain.calls.submit).toBe(1)
    expect(chain.issued()).toBe(0n)
  })

  test('behavior: a request killed while sending, with the hash its operation would have kept: found on-chain, the retry finalizes it; not found, IDEMPOTENCY_SUBMISSION_UNCERTAIN names the hash', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const post = instance(stores[0], chain, { studioId })
    const killedWhileSending = async (key: string, userOpHash: Hex) => {
      const dead = await stores[1].claim({ scope: scopeOf(studioId), key, fingerprint: fingerprintOf(studioId, body()), leaseMs: 1 })
      if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
      await stores[1].beginSubmission(dead.lease, { dueAt: '1767225600' }, userOpHash)
    }
    const landed = hashOf('operation')
    chain.chain.set(landed, { invoiceId: 12n, txHash: hashOf('transaction') })
    const landedKey = randomUUID()
    await killedWhileSending(landedKey, landed)
    expect((await post(body(), landedKey)).body).toMatchObject({ id: '12', userOpHash: landed, idempotency: { replayed: true, state: 'confirmed' } })
    expect(chain.calls).toEqual({ submit: 0, poll: 1, finalize: 1 })

    const lost = hashOf('operation')
    const lostKey = randomUUID()
    await killedWhileSending(lostKey, lost)
    const uncertain = await post(body(), lostKey)
    expect(uncertain).toEqual({ status: 409, body: { error: 'IDEMPOTENCY_SUBMISSION_UNCERTAIN', code: 'IDEMPOTENCY_SUBMISSION_UNCERTAIN', userOpHash: lost, message: expect.stringContaining('will not build it again') } })
    // it may still land: then the same request finds it
    chain.chain.set(lost, { invoiceId: 13n, txHash: hashOf('transaction') })
    expect((await post(body(), lostKey)).body).toMatchObject({ id: '13', userOpHash: lost })
    expect(chain.calls.submit).toBe(0)
  })

  test('behavior: a bundler answer lost on the way for an operation that landed: with its hash kept, the retry finds it and issues nothing more', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    Object.assign(chain.behaviour, { keepHash: true, landsAnyway: true, sendError: new BundlerUnavailableError('the bundler did not answer') })
    expect((await post(body(), key)).status).toBe(503)
    chain.behaviour.sendError = undefined
    expect((await post(body(), key)).body).toMatchObject({ id: '1', idempotency: { replayed: true, state: 'confirmed' } })
    expect(chain.calls.submit).toBe(1)
    expect(chain.issued()).toBe(1n)
  })

  test('behavior: an operation the bundler refused went nowhere: the retry with the same key builds it again', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    chain.behaviour.sendError = new BundlerRejectedError('AA23 reverted')
    const refused = await post(body(), key)
    expect(refused).toMatchObject({ status: 400, body: { code: 'TRANSACTION_FAILED' } })
    chain.behaviour.sendError = undefined
    expect((await post(body(), key)).body).toMatchObject({ id: '1', idempotency: { replayed: false, state: 'confirmed' } })
    expect(chain.calls.submit).toBe(2)
  })

  test('behavior: FINALIZATION_FAILED (500) names the on-chain invoice and its transaction; the retry with the same key finalizes it, issuing nothing twice', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    chain.behaviour.finalizeFails = true
    const failed = await post(body(), key)
    const [userOpHash, onChain] = [...chain.chain][0]!
    expect(failed).toEqual({
      status: 500,
      body: { error: 'FINALIZATION_FAILED', code: 'FINALIZATION_FAILED', invoiceId: '1', txHash: onChain.txHash, userOpHash, message: expect.stringContaining('same Idempotency-Key') },
    })
    expect((await post(body(), key)).status).toBe(500)
    chain.behaviour.finalizeFails = false
    const finished = await post(body(), key)
    expect(finished.body).toMatchObject({ id: '1', txHash: onChain.txHash, idempotency: { key, replayed: true, state: 'confirmed' } })
    expect(chain.calls).toEqual({ submit: 1, poll: 1, finalize: 3 })
    expect(chain.issued()).toBe(1n)
  })

  test('behavior: 202 pending with the userOpHash; repeating the POST repolls that operation until it answers 200', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    const key = randomUUID()
    chain.behaviour.pending = true
    const pending = await post(body(), key)
    expect(pending).toEqual({ status: 202, body: { status: 'pending', userOpHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), message: expect.any(String), idempotency: { key, replayed: false, state: 'pending' } } })
    const again = await post(body(), key)
    expect(again).toEqual({ status: 202, body: { ...pending.body, idempotency: { key, replayed: true, state: 'pending' } } })
    chain.behaviour.pending = false
    const confirmed = await post(body(), key)
    expect(confirmed.body).toMatchObject({ id: '1', userOpHash: pending.body.userOpHash, idempotency: { replayed: true, state: 'confirmed' } })
    expect(chain.calls).toEqual({ submit: 1, poll: 3, finalize: 1 })
  })

  test('behavior: dueDays counts from the first request: a retry a day later issues the same dueAt', async () => {
    const chain = issuer()
    const studioId = randomUUID()
    const key = randomUUID()
    const dead = await stores[0].claim({ scope: scopeOf(studioId), key, fingerprint: fingerprintOf(studioId, body({ dueDays: 30 })), leaseMs: 1 })
    if (dead.kind !== 'leased') throw new Error('the first claim leased the record')
    // the first request came a day before the retry
    await db.query(`UPDATE idempotency_records SET created_at = created_at - interval '1 day' WHERE idempotency_key = $1`, [key])
    const firstRequestAt = new Date(dead.record.createdAt.getTime() - 86_400_000)
    const retried = await instance(stores[1], chain, { studioId })(body({ dueDays: 30 }), key)
    expect(chain.anchors).toEqual([firstRequestAt])
    expect(retried.body.dueAt).toBe(String(Math.floor(firstRequestAt.getTime() / 1000) + 30 * 86_400))
    expect(Number(retried.body.dueAt)).toBeLessThan(Date.now() / 1000 + 29.5 * 86_400)
  })

  test('behavior: without a key, where the deployment allows it, every request is an invoice of its own and carries no idempotency field', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID(), required: false })
    const answers = [await post(body()), await post(body())]
    expect(answers.map((answer) => answer.body.id)).toEqual(['1', '2'])
    for (const answer of answers) expect(answer.body).not.toHaveProperty('idempotency')
  })

  test('behavior: an answer with nothing on-chain (a client-signed prepare) is computed once per key and replayed; a failed one is computed again from the same anchor', async () => {
    const scope = { studioId: randomUUID(), chainId, route: 'invoices.prepare' }
    const key = randomUUID()
    const anchors: Date[] = []
    let fail = true
    const compute = async ({ anchor }: { anchor: Date }) => {
      anchors.push(anchor)
      if (fail) throw new BundlerUnavailableError('the paymaster did not answer')
      return { success: true, userOp: { sender: '0x01', nonce: String(anchors.length) } }
    }
    const request = { scope, key, fingerprint: fingerprintOf(scope.studioId, body()) }
    await expect(answerIdempotently(stores[0], request, compute)).rejects.toMatchObject({ code: 'BUNDLER_UNAVAILABLE' })
    fail = false
    const first = await answerIdempotently(stores[1], request, compute)
    expect(first).toEqual({ success: true, userOp: { sender: '0x01', nonce: '2' }, idempotency: { key, replayed: false, state: 'confirmed' } })
    expect(await answerIdempotently(stores[0], request, compute)).toEqual({ ...first, idempotency: { key, replayed: true, state: 'confirmed' } })
    await expect(answerIdempotently(stores[0], { ...request, fingerprint: fingerprintOf(scope.studioId, body({ amount: '1' })) }, compute)).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' })
    expect(anchors).toHaveLength(2)
    expect(anchors[1]).toEqual(anchors[0])
  })

  test('behavior: a deployment that requires a key refuses none with IDEMPOTENCY_KEY_REQUIRED and a malformed one with IDEMPOTENCY_KEY_INVALID (400), issuing nothing', async () => {
    const chain = issuer()
    const post = instance(stores[0], chain, { studioId: randomUUID() })
    expect(await post(body())).toMatchObject({ status: 400, body: { error: 'IDEMPOTENCY_KEY_REQUIRED', code: 'IDEMPOTENCY_KEY_REQUIRED' } })
    expect(await post(body(), 'k'.repeat(129))).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_INVALID' } })
    expect(await post(body(), 'order 42')).toMatchObject({ status: 400, body: { code: 'IDEMPOTENCY_KEY_INVALID' } })
    expect((await post(body(), 'k'.repeat(128))).status).toBe(200)
    expect(chain.calls.submit).toBe(1)
  })
})
