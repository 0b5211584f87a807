import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { builtDeploymentFile } from '../../build/distDir'
import { readPinnedDeployment } from '../../build/readPinnedDeployment'
import type { PinnedDeployment } from '../../shared/pinnedDeployment'
import type { MadeBody } from '../http/negotiateEncoding'
import { pageTemplate, type PageTemplate } from './payPageMarkup'

/** The built page as the share-link route serves it, worked out once per build. */
export type BuiltPayPage = {
  /** index.html with the parents the page may post to, as served where no invoice is rendered in. */
  shell: MadeBody
  /** The same, with the holes the invoice is rendered into. */
  template: PageTemplate
  /** Content-Security-Policy for it. */
  policy: string
  /** The deployment written beside the build; null for a page built before deployments were written
   * beside it, or beside one that does not parse: the client then renders the page alone. */
  deployment: PinnedDeployment | null
}

export type BuiltPayPageParameters = {
  distDir: string
  /** Sources of the CSP directives that depend on the server's configuration, not on the build. */
  frameAncestors: string
  connectSources: string[]
  /** How long the files are taken as they were last seen before their sizes and times are looked at again. */
  recheckMs?: number
  now?: () => number
}

/** CSP sources for the built page's own inline styles (build/inlineStylesheet.ts), and for nothing
 * else: the page rendered into it adds none. */
function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => `'sha256-${createHash('sha256').update(css!).digest('base64')}'`)
}

/** Size and modification time, or that the file is missing: what tells a rebuilt file apart. */
function stamp(path: string): string {
  try {
    const { size, mtimeMs } = statSync(path)
    return `${size}:${mtimeMs}`
  } catch {
    return 'missing'
  }
}

/**
 * The built page, for a given list of parents, or null while it is not built. The files are read
 * once per build, not per request (the page's every view used to read and parse both, and hash its
 * styles): a rebuild is still served without a restart, within `recheckMs`.
 */
export function builtPayPage({ distDir, frameAncestors, connectSources, recheckMs = 1_000, now = Date.now }: BuiltPayPageParameters) {
  const htmlPath = join(distDir, 'index.html')
  const deploymentPath = join(distDir, builtDeploymentFile)
  let seen: { at: number; stamps: string; parents: string; page: BuiltPayPage | null } | undefined

  function read(parents: string): BuiltPayPage | null {
    let html: string
    try {
      html = readFileSync(htmlPath, 'utf8')
    } catch {
      return null
    }
    html = html.replace('</head>', `<meta name="svc-frame-ancestors" content="${parents}" />\n</head>`)
    let deployment: PinnedDeployment | null = null
    try {
      deployment = readPinnedDeployment(deploymentPath)
    } catch {
      // missing or unreadable: served without the invoice rendered in
    }
    const policy = [
      "default-src 'self'",
      "script-src 'self'",
      ['style-src', "'self'", ...inlineStyleHashes(html)].join(' '),
      "img-src 'self' data:",
      ['connect-src', "'self'", ...connectSources].join(' '),
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${frameAncestors}`,
    ].join('; ')
    return { shell: { text: html }, template: pageTemplate(html), policy, deployment }
  }

  return (parents: string): BuiltPayPage | null => {
    const at = now()
    if (seen && seen.parents === parents && at - seen.at < recheckMs) return seen.page
    const stamps = `${stamp(htmlPath)} ${stamp(deploymentPath)}`
    const page = seen && seen.parents === parents && seen.stamps === stamps ? seen.page : read(parents)
    seen = { at, stamps, parents, page }
    return page
  }
}
