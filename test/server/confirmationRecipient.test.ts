import { expect, test } from 'vitest'
import { confirmationRecipientHash, normalisedRecipient } from '../../server/merchant/leads/confirmationRecipient'

test('every spelling that reaches one inbox is one recipient: case, spaces around it, a +tag, and the dots Gmail ignores', () => {
  expect(normalisedRecipient(' Ada+Again@Analytical.Example ')).toBe('ada@analytical.example')
  expect(normalisedRecipient('a.d.a+1@googlemail.com')).toBe('ada@gmail.com')
  expect(normalisedRecipient('Ada.Lovelace@gmail.com')).toBe('adalovelace@gmail.com')
  // elsewhere a dot is part of the name: another inbox
  expect(normalisedRecipient('ada.lovelace@analytical.example')).not.toBe(normalisedRecipient('adalovelace@analytical.example'))
  expect(confirmationRecipientHash('ADA@analytical.example')).toBe(confirmationRecipientHash('ada+x@analytical.example'))
  expect(confirmationRecipientHash('ada@analytical.example')).toMatch(/^[0-9a-f]{64}$/)
  expect(confirmationRecipientHash('ada@analytical.example')).not.toContain('ada')
})
