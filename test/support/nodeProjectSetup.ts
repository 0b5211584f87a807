import type { TestProject } from 'vitest/node'
import { requireSystemTools } from './systemTools'
import workerDevnets from './workerDevnets'

/** Global setup of the `node` project: PostgreSQL and Redis first, then the workers' devnets. */
export default function nodeProjectSetup(project: TestProject) {
  requireSystemTools(['postgresql', 'redis-server'])
  return workerDevnets(project)
}
