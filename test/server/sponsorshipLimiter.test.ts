import { getAddress, keccak256, toHex, type Address, type Hex } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { createSponsorshipLimiter, type SponsorshipClaim, type SponsorshipLimiter } from '../../server/payments/sponsorshipLimiter'
import { backends, useDatabases } from '../support/postgres'

const databases = useDatabases()
const registry = getAddress('0x5fbdb2315678afecb367f032d93f642f64180aa3')
const entryPoint = getAddress('0x0000000071727de22e5e9d8baf0edac6f37da032')
let serial = 0
const address = (): Address => getAddress(keccak256(toHex(`address ${++serial}`)).slice(0, 42))
const hash = (): Hex => keccak256(toHex(`operation ${++serial}`))
const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds

/** A sponsored operation for `invoiceId` from a fresh sender, owner and client unless given. */
function claim(invoiceId: bigint, overrides: Partial<SponsorshipClaim> = {}): SponsorshipClaim {
  return {
    userOpHash: hash(),
    invoice: { chainId: 31337, registry, invoiceId },
    sender: address(),
    owner: address(),
    clientKey: `198.51.100.${++serial % 250}`,
    entryPoint,
    nonce: 0n,
    validUntil: inSeconds(900),
    ...overrides,
  }
}

describe.each(backends)('%s', (backend) => {
  let first: SponsorshipLimiter
  let second: SponsorshipLimiter
  const limits = { perInvoice: 3, perOwner: 10, perClient: 20 }
  beforeAll(async () => {
    const [one, two] = await databases.openTwo(backend)
    // two instances of the server on one database
    first = createSponsorshipLimiter(one, limits)
    second = createSponsorshipLimiter(two, limits)
  })

  test('behavior: ten concurrent admissions for one invoice, through two instances: exactly three are admitted', async () => {
    const invoiceId = BigInt(++serial)
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => (i % 2 ? first : second).admit(claim(invoiceId), Date.now())))
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3)
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))
    expect(refused).toHaveLength(7)
    for (const error of refused) expect(error).toMatchObject({ code: 'SPONSORSHIP_LIMIT', details: { limit: 'perInvoice', max: 3 } })
  })

  test('behavior: a newer operation of the same sender for the invoice takes its older one\'s place; an ended window frees its slot', async () => {
    const invoiceId = BigInt(++serial)
    const sender = address()
    await first.admit(claim(invoiceId, { sender, validUntil: inSeconds(600) }), Date.now())
    await first.admit(claim(invoiceId), Date.now())
    await first.admit(claim(invoiceId), Date.now())
    await expect(second.check(claim(invoiceId), Date.now())).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT' })
    // Retry-After: when the earliest of the three ends
    await expect(second.admit(claim(invoiceId), Date.now())).rejects.toMatchObject({ details: { retryAfterSeconds: expect.any(Number) } })
    const refused = await second.admit(claim(invoiceId), Date.now()).catch((error) => error)
    expect(refused.details.retryAfterSeconds).toBeGreaterThan(590)
    expect(refused.details.retryAfterSeconds).toBeLessThanOrEqual(600)
    await second.admit(claim(invoiceId, { sender }), Date.now())
    await expect(second.admit(claim(invoiceId), Date.now())).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT' })
    // eleven minutes on, the replaced one has ended, and the others not
    await expect(second.admit(claim(invoiceId), Date.now() + 660_000)).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT' })
    // sixteen minutes on, every one of them has
    await second.admit(claim(invoiceId), Date.now() + 960_000)
  })

  test("behavior: a sender's operations for other nonces (a later sequence, another key) each keep their slot in every count; only one for the same EntryPoint, sender and nonce takes an older one's place, whatever invoice it is for", async () => {
    const invoiceId = BigInt(++serial)
    const sender = address()
    // three live operations of one sender for one invoice, each able to run: the invoice is full
    await first.admit(claim(invoiceId, { sender, nonce: 0n }), Date.now())
    await first.admit(claim(invoiceId, { sender, nonce: 1n }), Date.now())
    await second.admit(claim(invoiceId, { sender, nonce: (1n << 64n) | 0n }), Date.now())
    await expect(second.admit(claim(invoiceId, { sender, nonce: 2n }), Date.now())).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT', details: { limit: 'perInvoice' } })
    // the same slot on another EntryPoint is another slot
    await expect(second.admit(claim(invoiceId, { sender, nonce: 0n, entryPoint: address() }), Date.now())).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT' })
    // nonce 1 again, for another invoice: it replaces the first invoice's nonce-1 operation, which frees a place there
    await first.admit(claim(BigInt(++serial), { sender, nonce: 1n }), Date.now())
    await second.admit(claim(invoiceId), Date.now())
    await expect(second.admit(claim(invoiceId), Date.now())).rejects.toMatchObject({ code: 'SPONSORSHIP_LIMIT' })
  })

  test('behavior: a bound of 0 counts nothing; ended sponsorships are pruned', async () => {
    const [db] = await databases.openTwo(backend)
    const unlimited = createSponsorshipLimiter(db, { perInvoice: 0, perOwner: 0, perClient: 0 })
    const invoiceId = BigInt(++serial)
    for (let i = 0; i < 5; i++) await unlimited.admit(claim(invoiceId, { validUntil: inSeconds(-10) }), Date.now() - 60_000)
    expect(await unlimited.prune(new Date())).toBeGreaterThanOrEqual(5)
    expect(await db.query('SELECT 1 FROM sponsorships WHERE invoice_id = $1', [invoiceId.toString()])).toHaveLength(0)
  })
})
