import type { TestProject } from 'vitest/node'
import { stopUnlessSystemTools } from './systemTools'
import workerDevnets from './workerDevnets'

/** Global setup of the `node` project: PostgreSQL, Redis and pdftotext first, then the workers' devnets. */
export default async function nodeProjectSetup(project: TestProject) {
  if (!(await stopUnlessSystemTools(project, ['postgresql', 'redis-server', 'poppler-utils']))) return
  return workerDevnets(project)
}
