import { Hono } from 'hono'
import type { DevnetWalletKey } from '../../shared/devnetWalletKey'

/** The devnet only (`npm start`): hands the demo payer's well-known key to the page's built-in devnet
 * wallet, so that a newcomer can pay without a wallet extension. Never mounted by the production server. */
export function devnetWalletRoute(key: DevnetWalletKey) {
  const app = new Hono()
  app.get('/devnet/wallet', (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ privateKey: key.privateKey, rpcUrl: key.rpcUrl })
  })
  return app
}
