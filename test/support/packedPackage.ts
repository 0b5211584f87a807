import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageDir, stagePackage } from '../../packages/checkout/scripts/buildPackage'
import { sharedInstallPrefix } from './packedPackageSetup'

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
 * Builds @svc-checkout/js, packs it with `npm pack` and installs the tarball into `dir`, a new project,
 * as a merchant would: the tarball from its file, its dependencies (viem, standardwebhooks) from npm's
 * cache where it has them (`--prefer-offline`: `npm ci` caches tarballs but not the registry's
 * documents an install resolves versions from, so a fresh machine asks the registry for those), and
 * what a merchant's app brings itself (react, react-dom, their types, typescript) linked from this
 * repository's install.
 */
async function install(dir: string): Promise<InstalledPackage> {
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

/** What the package is built from: an install made from other sources is not this one. */
function sourcesKey(): string {
  const hash = createHash('sha256')
  const files = [...readdirSync(join(packageDir, 'src'), { recursive: true, encoding: 'utf8' }).map((name) => join('src', name)), 'package.json', 'README.md', 'tsconfig.json', join('scripts', 'buildPackage.ts')]
  for (const file of files.sort()) if (statSync(join(packageDir, file), { throwIfNoEntry: false })?.isFile()) hash.update(file).update('\0').update(readFileSync(join(packageDir, file)))
  return hash.digest('hex').slice(0, 16)
}

/** A run killed before its teardown leaves its install behind: the next run removes it. */
function removeInstallsOfEndedRuns() {
  for (const name of readdirSync(tmpdir())) {
    const runPid = Number(/^svc-packed-package-(\d+)-/.exec(name)?.[1])
    if (!runPid || runAlive(runPid)) continue
    rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

function runAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, another user's
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function waitForInstall(done: string): Promise<InstalledPackage> {
  // the beforeAll hooks that ask give it three minutes
  for (const until = Date.now() + 170_000; !existsSync(done); ) {
    if (Date.now() > until) throw new Error(`the packed package another test file installs was not ready within 170 s (${done})`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const answer = JSON.parse(readFileSync(done, 'utf8')) as { installed?: InstalledPackage; error?: string }
  if (!answer.installed) throw new Error(`the packed package could not be installed: ${answer.error}`)
  return answer.installed
}

/**
 * The run's one install of the packed package: the first test file to ask builds, packs and installs
 * it (8 to 10 s on a quiet machine: the build, its declarations, npm pack and install); a file that
 * asks meanwhile, in another worker or project, waits for it. Directly in the temporary folder, as
 * the files' own projects are: npm links React and TypeScript by relative paths.
 */
async function sharedInstall(): Promise<InstalledPackage> {
  removeInstallsOfEndedRuns()
  const dir = join(tmpdir(), `${sharedInstallPrefix(process.ppid)}${sourcesKey()}`)
  const done = `${dir}.json`
  try {
    mkdirSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return waitForInstall(done)
  }
  // written whole, then renamed: a reader never sees half of it
  const answer = (body: object) => {
    writeFileSync(`${done}.tmp`, JSON.stringify(body))
    renameSync(`${done}.tmp`, done)
  }
  try {
    const installed = await install(dir)
    answer({ installed })
    return installed
  } catch (error) {
    answer({ error: error instanceof Error ? error.message : String(error) })
    throw error
  }
}

/**
 * @svc-checkout/js built, packed with `npm pack` and installed from its tarball into a new project of
 * the caller's own, as a merchant would (see `install`). The run installs it once; each caller's
 * project is a copy of that install whose files are hard links (`cp -al`, a fraction of a second
 * against seconds for a copy), so that what one test file writes into its project (its app, its
 * tsconfig) is never another's. A file a test writes must be a new one there: an existing file is a
 * link to the shared install's.
 */
export async function installPackedPackage(): Promise<InstalledPackage> {
  const shared = await sharedInstall()
  const dir = mkdtempSync(join(tmpdir(), 'svc-merchant-app-'))
  execFileSync('cp', ['-al', `${shared.dir}/.`, dir])
  return { dir, tarball: join(dir, shared.tarball.slice(shared.dir.length + 1)), files: shared.files }
}

/** The installed package's files, to check nothing but its build came along. */
export const installedFiles = (dir: string) => readdirSync(join(dir, 'node_modules', '@svc-checkout', 'js'), { recursive: true, encoding: 'utf8' }).sort()
