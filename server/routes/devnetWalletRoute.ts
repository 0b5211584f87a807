import { Hono } from 'hono'
import type { DevnetWalletKey } from '../../shared/devnetWalletKey'
import type { PolicyMiddleware } from './routePolicy'

const path = '/devnet/wallet'

/** The devnet only (`npm start`): hands the demo payer's well-known key to the page's built-in devnet
 * wallet, so that a newcomer can pay without a wallet extension. Never mounted by the production server. */
export function devnetWalletRoute(key: DevnetWalletKey, policy?: Pick<PolicyMiddleware, 'anyOrigin'>) {
  const app = new Hono()
  // the page's wallet reads it from the page's origin, which may be the storefront's
  if (policy) app.use(path, policy.anyOrigin)
  app.get(path, (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json({ privateKey: key.privateKey, rpcUrl: key.rpcUrl })
  })
  return app
}
