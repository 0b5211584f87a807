import { describe, expect, test } from 'vitest'
import { onThisMachine } from '../../server/merchant/email/smtpMailer'

describe('which SMTP servers the invoice mail may reach without TLS', () => {
  test.each([
    ['smtp://127.0.0.1:2525', true],
    ['smtp://127.8.9.10:25', true],
    ['smtp://localhost:2525', true],
    ['smtp://[::1]:2525', true],
    ['smtp://[::ffff:127.0.0.1]:2525', true],
    ['smtp://user:secret@smtp.example.com:587', false],
    ['smtp://10.0.0.5:25', false],
    ['smtp://[2001:db8::1]:25', false],
    ['smtp://localhost.evil.example:25', false],
  ])('behavior: %s is on this machine: %s (anything else must speak TLS, or the link and login travel in clear)', (url, local) => {
    expect(onThisMachine(url)).toBe(local)
  })
})
