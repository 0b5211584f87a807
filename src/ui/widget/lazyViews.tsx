import type { FunctionComponent } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { whenIdle } from '../whenIdle'
import type { afterPayViews } from './afterPayViews'
import { ProgressView } from './ProgressView'

/**
 * The states after Pay are not in the page's initial chunks (test/size/payPageSize.test.ts holds the
 * budget up to the Pay button): they are one chunk, asked for once the widget has rendered and the
 * browser is idle, long before a payer can press Pay. A state reached before it has arrived asks for
 * it at once and shows the spinner every state in between shows meanwhile.
 */
type AfterPayViews = typeof afterPayViews

let loaded: AfterPayViews | null = null
let loading: Promise<AfterPayViews> | null = null

/** Loads the views after Pay (once; again after a failed load). */
export function loadAfterPayViews(): Promise<AfterPayViews> {
  loading ??= import('./afterPayViews').then(
    (module) => (loaded = module.afterPayViews),
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

/** A failed load is asked for again while the view is still wanted: a dropped request on a phone
 * network must not leave the payer at a spinner. */
const retryMs = 2_000

function lazyView<Name extends keyof AfterPayViews>(name: Name, placeholder: () => preact.JSX.Element | null, startWhenIdle = false): AfterPayViews[Name] {
  function Lazy(props: Record<string, unknown>) {
    const [, arrived] = useState(loaded !== null)
    useEffect(() => {
      // arrived between this render (the placeholder) and now, asked for by another view: without
      // this the payer would be left at the spinner (seen under load: the unsafe state never shown)
      if (loaded) {
        arrived(true)
        return
      }
      let live = true
      let cancel = () => {}
      const load = () =>
        void loadAfterPayViews().then(
          () => live && arrived(true),
          () => {
            if (!live) return
            const id = setTimeout(load, retryMs)
            cancel = () => clearTimeout(id)
          },
        )
      if (startWhenIdle) cancel = whenIdle(load)
      else load()
      return () => {
        live = false
        cancel()
      }
    }, [])
    if (!loaded) return placeholder()
    const View = loaded[name] as FunctionComponent<Record<string, unknown>>
    return <View {...props} />
  }
  Lazy.displayName = `Lazy${name}`
  return Lazy as unknown as AfterPayViews[Name]
}

const spinner = () => <ProgressView />

// The prompt is in every widget and shows nothing until the devnet wallet asks (after Pay): its
// placeholder is nothing, and it is what starts the chunk's load once the browser is idle.
export const DevnetWalletPrompt = lazyView('DevnetWalletPrompt', () => null, true)
export const ErrorView = lazyView('ErrorView', spinner)
export const FundingView = lazyView('FundingView', spinner)
export const InsufficientBalanceView = lazyView('InsufficientBalanceView', spinner)
export const PendingView = lazyView('PendingView', spinner)
export const PermitExpiredView = lazyView('PermitExpiredView', spinner)
export const PermitView = lazyView('PermitView', spinner)
export const ReceiptView = lazyView('ReceiptView', spinner)
export const SigningOperationView = lazyView('SigningOperationView', spinner)
export const SmartWalletView = lazyView('SmartWalletView', spinner)
export const UnsafeView = lazyView('UnsafeView', spinner)
