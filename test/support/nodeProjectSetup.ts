import type { TestProject } from 'vitest/node'
import { requireSystemTools } from './systemTools'
import workerDevnets from './workerDevnets'

/** Global setup of the `node` project: PostgreSQL, Redis and pdftotext first, then the workers' devnets. */
export default function nodeProjectSetup(project: TestProject) {
  requireSystemTools(['postgresql', 'redis-server', 'poppler-utils'])
  return workerDevnets(project)
}
