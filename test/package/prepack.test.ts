import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { packageDir, packageDistDir } from '../../packages/checkout/scripts/buildPackage'

const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }

/** `npm pack --dry-run --json` in packages/checkout, as a maintainer packs it: its prepack runs, the
 * files it would pack are listed, nothing is written but the build. */
function packDryRun(): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const [packed] = JSON.parse(output) as [{ files: { path: string }[] }]
  return packed.files.map((file) => file.path).sort()
}

// The package's own dist/ (ignored by git; no other test builds there): a build, then tsc, on a
// loaded machine
test('behavior: npm pack in packages/checkout builds dist first (prepack), so a tarball never holds a stale or missing build', { timeout: 120_000 }, () => {
  expect(packageJson.scripts?.prepack).toBe('tsx scripts/buildPackage.ts')

  // a stale build: a file an older version built, and an entry that is not the source's
  rmSync(packageDistDir, { recursive: true, force: true })
  mkdirSync(packageDistDir, { recursive: true })
  writeFileSync(join(packageDistDir, 'index.js'), '// stale\n')
  writeFileSync(join(packageDistDir, 'checkout.legacy.js'), '// stale\n')
  expect(packDryRun()).toEqual(['README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/react.d.ts', 'dist/react.js', 'dist/server.d.ts', 'dist/server.js', 'package.json'])
  expect(readFileSync(join(packageDistDir, 'index.js'), 'utf8')).toMatch(/^export \{[^}]*\bloadCheckout\b/m)
  expect(existsSync(join(packageDistDir, 'checkout.legacy.js'))).toBe(false)

  // no build at all
  rmSync(packageDistDir, { recursive: true, force: true })
  expect(packDryRun()).toContain('dist/server.js')
})
