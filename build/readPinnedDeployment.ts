import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pinnedDeploymentSchema, type PinnedDeployment } from '../shared/pinnedDeployment.ts'
import { BuildError } from './buildError.ts'

/** The committed devnet deployment, as `npm run deploy -- --test-token` writes it for the devnet's roles:
 * CREATE2 addresses, which follow from the contracts' code and constructor arguments alone. */
// a path, not new URL(): under a DOM test environment URL is the DOM's, which node's path helpers refuse
export const devnetDeploymentFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'shared', 'devnet.deployment.json')

/** Build-time only (Node): a deployment file that does not parse stops the build, rather than ship a
 * widget that verifies against nothing. */
export function readPinnedDeployment(path: string = devnetDeploymentFile): PinnedDeployment {
  const parsed = pinnedDeploymentSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new BuildError('DEPLOYMENT_FILE_INVALID', `invalid deployment file ${path}:\n${lines.join('\n')}\nfix these fields, or write the file again with npm run deploy`)
  }
  return parsed.data
}
