import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the page, its lazily loaded bundles and the embed loader are built: `dist/` unless
 * SVC_DIST_DIR says otherwise (a devnet on another RPC port builds its own page beside its
 * devnet.json, pinned to that RPC). */
export function distDir(env: Record<string, string | undefined> = process.env): string {
  // a path, not new URL(): under a DOM test environment URL is the DOM's, which node's path helpers refuse
  return env.SVC_DIST_DIR ? resolve(env.SVC_DIST_DIR) : join(dirname(fileURLToPath(import.meta.url)), '..', 'dist')
}

/** The deployment the page in a dist directory was built against, written beside index.html: the
 * server allows its RPCs in the page's CSP, and a devnet checks it is the one it runs. */
export const builtDeploymentFile = 'deployment.json'
