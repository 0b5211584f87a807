// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { LocaleContext } from '../LocaleContext'
import { english, type Locale } from '../strings'
import { afterPayEn } from '../strings.afterPay'
import { de } from '../strings.de'
import { ErrorView } from './ErrorView'

afterEach(cleanup)

function show(code: string, status: number | null, locale: Locale = english) {
  const onRetry = vi.fn()
  render(
    <LocaleContext.Provider value={locale}>
      <ErrorView code={code} status={status} retryAt={null} onRetry={onRetry} />
    </LocaleContext.Provider>,
  )
  return onRetry
}

describe('ErrorView', () => {
  test.each(['PERMIT_REFUSED', 'PERMIT_EXPIRED'])('behavior: %s (the service\'s PERMIT_EXPIRED, which the chain\'s clock did not bear out) asks for a new authorisation and never says "expired"', (code) => {
    const onRetry = show(code, 409)
    const text = screen.getByRole('alert').textContent
    expect(text).toBe(afterPayEn.errorPermitRenew + 'Sign a new authorisation')
    expect(text).not.toMatch(/expired/i)
    fireEvent.click(screen.getByRole('button', { name: 'Sign a new authorisation' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  test('behavior: a service that answered in a shape the page cannot use was reached: the payer is never told it could not be reached, in German either', () => {
    show('INVALID_RESPONSE', 0)
    const text = screen.getByRole('alert').textContent
    expect(text).toBe('The payment service answered, but not in a form this page can use. Nothing was paid. Try again, and tell the sender if it happens again.Try again')
    expect(text).not.toContain(afterPayEn.errorNetwork)
    cleanup()
    show('INVALID_RESPONSE', 0, { strings: de, tag: 'de' })
    expect(screen.getByRole('alert').textContent).toContain(de.afterPay!.errorInvalidAnswer)
    // no answer at all still reads as such
    cleanup()
    show('NETWORK_ERROR', 0)
    expect(screen.getByRole('alert').textContent).toContain(afterPayEn.errorNetwork)
  })

  test('behavior: an unknown code or a known one without words of its own reads as the generic message, never the code', () => {
    for (const code of ['UNKNOWN_ERROR', 'TRANSACTION_FAILED', 'INVALID_STATUS']) {
      show(code, 400)
      expect(screen.getByRole('alert').textContent).toBe('The payment service could not do this. Nothing was paid. Try again, and tell the sender if it happens again.Try again')
      cleanup()
    }
  })

  test('behavior: with the chain unreadable the payer is told the page cannot check the invoice, in German too', () => {
    show('CHAIN_UNREADABLE', null, { strings: de, tag: 'de' })
    expect(screen.getByRole('alert').textContent).toContain('Diese Seite kann die Rechnung gerade nicht auf der Blockchain prüfen')
  })
})
