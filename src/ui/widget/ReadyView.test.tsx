// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { WalletChoice } from '../../wallet/walletChoice'
import { PageLinkContext } from '../page/PageLinkContext'
import { LocaleContext } from '../LocaleContext'
import { english } from '../strings'
import { ReadyView } from './ReadyView'

afterEach(cleanup)

const link = { origin: 'https://checkout.example', invoiceId: '7', token: 'svc_tk_abc' }
const devnet: WalletChoice = { id: 'devnet', kind: 'devnet', name: '', icon: '', open: async () => ({ request: async () => null }) }

const view = (wallets: WalletChoice[]) => (
  <LocaleContext.Provider value={english}>
    <PageLinkContext.Provider value={link}>
      <ReadyView note={null} wallets={wallets} onChoose={vi.fn()} />
    </PageLinkContext.Provider>
  </LocaleContext.Provider>
)

describe('ReadyView', () => {
  test('behavior: a wallet found after the first render is listed above "Pay on your phone", which stays the same element: its QR code is not drawn again', () => {
    const { container, rerender } = render(view([]))
    const panel = container.querySelector('.svc-elsewhere')
    expect(panel?.querySelector('h3')?.textContent).toBe('Pay on your phone')
    rerender(view([devnet]))
    expect(container.querySelector('.svc-wallets')).not.toBeNull()
    expect(container.querySelector('.svc-elsewhere')).toBe(panel)
    expect(panel!.isConnected).toBe(true)
  })
})
