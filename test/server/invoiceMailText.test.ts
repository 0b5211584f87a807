import { describe, expect, test } from 'vitest'
import { invoiceMailText, mailLanguages } from '../../server/merchant/email/invoiceMailText'

const facts = {
  merchantName: 'Northwind Studio Ltd',
  customerName: 'Acme\r\nBcc: someone@else.example',
  invoiceNumber: 'NW-0042',
  amount: 1_234_500_000n,
  token: { symbol: 'USDC', decimals: 6 },
  dueAt: 1_798_761_600n, // 2027-01-01T00:00:00Z
  shareLink: 'https://pay.example/pay/42?token=svc_tk_abc',
}

describe('invoiceMailText', () => {
  test('default: written in the language the customer\'s country gives, amounts and dates as it writes them', () => {
    expect(invoiceMailText(facts, 'DE')).toMatchObject({ language: 'de', subject: 'Rechnung NW-0042 von Northwind Studio Ltd' })
    expect(invoiceMailText(facts, 'de').text).toContain('über 1.234,50 USDC gesendet, fällig am 1. Januar 2027.')
    expect(invoiceMailText(facts, 'FR')).toMatchObject({ language: 'fr', subject: 'Northwind Studio Ltd\u00a0: facture NW-0042' })
    expect(invoiceMailText(facts, 'BR').text).toContain('no valor de 1.234,50 USDC, com vencimento em 1 de janeiro de 2027.')
    expect(invoiceMailText(facts, 'US').text).toContain('for 1,234.50 USDC, due on January 1, 2027.')
  })

  test('behavior: English where the country gives no language, or one the mail is not written in yet', () => {
    // Belgium and Switzerland speak several; Japan's language has no mail text yet
    expect(['BE', 'CH', 'JP', undefined].map((country) => invoiceMailText(facts, country).language)).toEqual(['en', 'en', 'en', 'en'])
    expect(mailLanguages).toEqual(['en', 'de', 'es', 'fr', 'it', 'nl', 'pt-BR'])
  })

  test('behavior: every language carries the share link whole, and a name cannot start a line of its own', () => {
    for (const country of ['GB', 'DE', 'ES', 'FR', 'IT', 'NL', 'BR']) {
      const mail = invoiceMailText(facts, country)
      expect(mail.text).toContain(`\n${facts.shareLink}\n`)
      expect(mail.text).not.toMatch(/^Bcc:/m)
      expect(mail.subject).not.toMatch(/[\r\n]/)
    }
  })
})
