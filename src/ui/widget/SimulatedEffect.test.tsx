// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, expect, test } from 'vitest'
import { LocaleContext } from '../LocaleContext'
import { english } from '../strings'
import { de } from '../strings.de'
import { SimulatedEffect } from './SimulatedEffect'

afterEach(cleanup)

const token = { address: '0x00000000000000000000000000000000000000Cc', symbol: 'USDC', decimals: 6 } as const
const effect = { paid: 248_000_000n, merchantReceives: 245_520_000n, fee: 2_480_000n }

test('behavior: says in one sentence who pays which fee: the payer exactly the amount, the payee the service fee out of its share', () => {
  render(
    <LocaleContext.Provider value={english}>
      <SimulatedEffect effect={effect} token={token} merchantName="Northwind Studio Ltd" />
    </LocaleContext.Provider>,
  )
  expect(screen.getByText(/^Tried on the blockchain/).textContent).toBe(
    'Tried on the blockchain just now, before you sign: you pay exactly 248.00 USDC, with no network fee (it is sponsored); Northwind Studio Ltd receives 245.52 USDC, as its service fee of 2.48 USDC comes out of its share, not out of what you pay.',
  )
})

test('behavior: an unnamed payee is "the payee"; German too', () => {
  render(
    <LocaleContext.Provider value={{ strings: de, tag: 'de-DE' }}>
      <SimulatedEffect effect={effect} token={token} merchantName={null} />
    </LocaleContext.Provider>,
  )
  expect(screen.getByText(/^Soeben/).textContent).toBe(
    'Soeben auf der Blockchain durchgespielt, bevor Sie unterschreiben: Sie zahlen genau 248,00 USDC, ohne Netzwerkgebühr (sie wird übernommen); der Empfänger erhält 245,52 USDC, denn die Servicegebühr von 2,48 USDC geht vom Anteil des Empfängers ab, nicht zu Ihren Lasten.',
  )
})

test('behavior: a fee in fractions of a cent is shown to the cent, in German as in English, and the two add up to the amount shown', () => {
  // 1% of 1,336.50 USDC: the chain moves 13.365 to the fee and 1,323.135 to the merchant
  const split = { paid: 1_336_500_000n, merchantReceives: 1_323_135_000n, fee: 13_365_000n }
  render(
    <LocaleContext.Provider value={{ strings: de, tag: 'de-DE' }}>
      <SimulatedEffect effect={split} token={token} merchantName="Northwind Studio Ltd" />
    </LocaleContext.Provider>,
  )
  const text = screen.getByText(/^Soeben/).textContent
  expect(text).toContain('Sie zahlen genau 1.336,50 USDC')
  expect(text).toContain('Northwind Studio Ltd erhält 1.323,13 USDC')
  expect(text).toContain('Servicegebühr von 13,37 USDC')
  expect(text).not.toMatch(/\d,\d{3}\b/)
})
