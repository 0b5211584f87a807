import { createHash } from 'node:crypto'

/** Providers that ignore dots in the mailbox's name: one inbox answers to every spelling. */
const dotlessDomains = new Map([
  ['gmail.com', 'gmail.com'],
  ['googlemail.com', 'gmail.com'],
])

/**
 * The mailbox an address reaches, as one string: case folded, a "+tag" after the name dropped, and
 * the dots of a provider that ignores them. Every spelling that lands in one inbox is one recipient,
 * so that writing the address another way does not earn its owner another confirmation.
 */
export function normalisedRecipient(email: string): string {
  const address = email.trim().toLowerCase()
  const at = address.lastIndexOf('@')
  if (at < 0) return address
  let name = address.slice(0, at)
  let domain = address.slice(at + 1)
  const plus = name.indexOf('+')
  if (plus > 0) name = name.slice(0, plus)
  const dotless = dotlessDomains.get(domain)
  if (dotless) {
    name = name.replaceAll('.', '')
    domain = dotless
  }
  return `${name}@${domain}`
}

/** What is kept of a confirmation's recipient: a hash of the normalised address, never the address. */
export const confirmationRecipientHash = (email: string) => createHash('sha256').update(normalisedRecipient(email)).digest('hex')
