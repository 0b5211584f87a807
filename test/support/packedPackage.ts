import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageDir, stagePackage } from '../../packages/checkout/scripts/buildPackage'

export type InstalledPackage = {
  /** The fresh project the tarball was installed into. */
  dir: string
  /** The tarball `npm pack` wrote. */
  tarball: string
  /** The files the tarball holds, as `npm pack --json` lists them. */
  files: string[]
}

const repoModules = () => realpathSync(join(packageDir, '..', '..', 'node_modules'))

/**
 * Builds @svc-checkout/js, packs it with `npm pack` and installs the tarball into a new project as a
 * merchant would: the tarball from its file, its dependencies (viem, standardwebhooks) from npm's
 * cache where it has them (`--prefer-offline`: `npm ci` caches tarballs but not the registry's
 * documents an install resolves versions from, so a fresh machine asks the registry for those), and
 * what a merchant's app brings itself (react, react-dom, their types, typescript) linked from this
 * repository's install.
 */
export async function installPackedPackage(): Promise<InstalledPackage> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-merchant-app-'))
  const staged = await stagePackage(join(dir, 'package-source'))
  // built once, just now: the package's prepack (the same build, into packages/checkout/dist) is not run
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: staged, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [
    { filename: string; files: { path: string }[] },
  ]
  const tarball = join(dir, packed[0].filename)
  const modules = repoModules()
  const linked = (name: string) => `file:${join(modules, name)}`
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'merchant-app',
      private: true,
      type: 'module',
      dependencies: {
        '@svc-checkout/js': `file:./${packed[0].filename}`,
        react: linked('react'),
        'react-dom': linked('react-dom'),
        '@types/react': linked('@types/react'),
        '@types/react-dom': linked('@types/react-dom'),
        typescript: linked('typescript'),
      },
    }),
  )
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  return { dir, tarball, files: packed[0].files.map((file) => file.path).sort() }
}

/** The installed package's files, to check nothing but its build came along. */
export const installedFiles = (dir: string) => readdirSync(join(dir, 'node_modules', '@svc-checkout', 'js'), { recursive: true, encoding: 'utf8' }).sort()
