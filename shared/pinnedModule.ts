/**
 * Modules the loader runs on a merchant's page (the wallet bridge, the inline widget) are fetched as
 * module scripts with an `integrity` hash fixed in the loader at build time: the browser refuses one
 * whose bytes differ, so a merchant who pins the loader with SRI pins everything it runs. (A dynamic
 * import() has no integrity option.) Such a module has no static imports to escape the check; it
 * hands its API to the loader under a name on `window`, read once the script has run.
 */
export type PinnedModuleName = '__svcKit' | '__svcBridge' | '__svcInline' | '__svcPaid'

/** Resolves with the module's API; rejects when it does not load or fails its integrity check (the
 * browser's console says which, with both hashes). */
export function loadPinnedModule<T>(url: string, integrity: string, name: PinnedModuleName): Promise<T> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.onload = () => resolve((window as unknown as Record<string, T>)[name]!)
    script.onerror = reject
    script.type = 'module'
    script.crossOrigin = 'anonymous'
    script.integrity = integrity
    script.src = url
    document.head.append(script)
  })
}

/** Called once at the top level of a pinned module, with what the loader may use of it. */
export function announceModule(name: PinnedModuleName, api: unknown): void {
  ;(window as unknown as Record<string, unknown>)[name] = api
}
