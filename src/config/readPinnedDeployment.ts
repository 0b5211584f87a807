import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { pinnedDeploymentSchema, type PinnedDeployment } from './pinnedDeployment.ts'

/** The committed devnet deployment: its addresses follow from anvil's deployer key and nonces. */
export const devnetDeploymentFile = fileURLToPath(new URL('./devnet.deployment.json', import.meta.url))

/** Build-time only (Node): a deployment file that does not parse stops the build, rather than ship a
 * widget that verifies against nothing. */
export function readPinnedDeployment(path: string = devnetDeploymentFile): PinnedDeployment {
  const parsed = pinnedDeploymentSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`invalid deployment file ${path}:\n${lines.join('\n')}`)
  }
  return parsed.data
}
