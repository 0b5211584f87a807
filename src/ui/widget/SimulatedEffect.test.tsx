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

test('behavior: says what the simulated operation moves, in the payer\'s words and amounts', () => {
  render(
    <LocaleContext.Provider value={english}>
      <SimulatedEffect effect={effect} token={token} merchantName="Northwind Studio Ltd" />
    </LocaleContext.Provider>,
  )
  expect(screen.getByText(/^Tried on the blockchain/).textContent).toBe('Tried on the blockchain just now, before you sign: your account −248.00 USDC · Northwind Studio Ltd +245.52 USDC · fee 2.48 USDC')
})

test('behavior: an unnamed payee is "the payee"; German too', () => {
  render(
    <LocaleContext.Provider value={{ strings: de, tag: 'de-DE' }}>
      <SimulatedEffect effect={effect} token={token} merchantName={null} />
    </LocaleContext.Provider>,
  )
  expect(screen.getByText(/^Soeben/).textContent).toBe('Soeben auf der Blockchain durchgespielt, bevor Sie unterschreiben: Ihr Konto −248,00 USDC · der Empfänger +245,52 USDC · Gebühr 2,48 USDC')
})
