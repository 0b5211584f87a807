import { render } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { Language } from '../src/ui/languages'
import { dashboardApi, type Api } from './dashboardApi'
import { finishSignIn, forgetToken, keptToken, startSignIn, type SignInSettings } from './pkceSignIn'
import { applyLanguage, loadDashboardStrings, preferredLanguage, rememberedLanguage, rememberLanguage } from './dashboardLanguage'
import type { DashboardStrings } from './strings'
import { CustomersView } from './views/CustomersView'
import { errorText, Problem } from './views/Field'
import { InvoicesView } from './views/InvoicesView'
import { LanguageSwitch } from './views/LanguageSwitch'
import { LazyView } from './views/LazyView'
import { PaymentsView } from './views/PaymentsView'
import { ProfileView } from './views/ProfileView'
import { VaultSetupView } from './views/VaultSetupView'
import { WithdrawalsView } from './views/WithdrawalsView'

// the page is served in English; its words are the merchant's language's from the first render on
// (a catalog other than English is fetched first, one small chunk), and screen readers speak them so
const firstLanguage = preferredLanguage(rememberedLanguage(), navigator.languages)
const firstStrings = await loadDashboardStrings(firstLanguage)
applyLanguage(firstLanguage)
const views = ['invoices', 'customers', 'payments', 'withdrawals', 'keys', 'agents', 'webhooks', 'branding', 'connections'] as const
// the settings pages, each a chunk fetched when first opened
const settingsViews = {
  keys: () => import('./views/ApiKeysView').then((module) => module.ApiKeysView),
  webhooks: () => import('./views/WebhooksView').then((module) => module.WebhooksView),
  branding: () => import('./views/BrandingView').then((module) => module.BrandingView),
  connections: () => import('./views/ConnectionsView').then((module) => module.ConnectionsView),
  agents: () => import('./views/AgentsView').then((module) => module.AgentsView),
}
type View = (typeof views)[number]
const viewOf = (hash: string): View => (views as readonly string[]).includes(hash.slice(1)) ? (hash.slice(1) as View) : 'invoices'

type Session = { state: 'loading' } | { state: 'signedOut'; problem?: string } | { state: 'setup'; api: Api } | { state: 'signedIn'; api: Api; profileComplete: boolean }

/** Where to sign in: the server's answer, so the same build serves any provider it is configured with. */
async function signInSettings(): Promise<SignInSettings> {
  const response = await fetch('/dashboard/config.json')
  if (!response.ok) throw new Error('This server has no sign-in configured.')
  const { issuer, clientId, audience, scope } = (await response.json()) as Omit<SignInSettings, 'redirectUri'>
  return { issuer, clientId, audience, scope, redirectUri: `${location.origin}/dashboard` }
}

function Dashboard() {
  const [t, setStrings] = useState<DashboardStrings>(firstStrings)
  const chooseLanguage = async (language: Language) => {
    rememberLanguage(language)
    const strings = await loadDashboardStrings(language)
    applyLanguage(language)
    setStrings(strings)
  }
  const viewTitle = (view: View) => t[view]
  const [session, setSession] = useState<Session>({ state: 'loading' })
  const [settings, setSettings] = useState<SignInSettings | null>(null)
  const [view, setView] = useState<View>(viewOf(location.hash))
  const signedOut = (problem?: string) => {
    forgetToken()
    setSession(problem ? { state: 'signedOut', problem } : { state: 'signedOut' })
  }
  useEffect(() => {
    const onHash = () => setView(viewOf(location.hash))
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  useEffect(() => {
    void (async () => {
      let found: SignInSettings
      try {
        found = await signInSettings()
        setSettings(found)
      } catch (error) {
        return signedOut(errorText(error))
      }
      let token: string | null
      try {
        token = (await finishSignIn(found, new URL(location.href))) ?? keptToken()
      } catch {
        return signedOut(t.signInFailed)
      }
      if (!token) return signedOut()
      const api = dashboardApi(token, () => signedOut())
      try {
        // creates or syncs the user and its studio, as SPEC 4.1 asks of every sign-in
        const { user } = await api.json<{ user: { studioId: string | null } }>('POST', '/v1/auth/login')
        // a user without a studio creates its vault first (SPEC 4.3)
        if (!user.studioId) return setSession({ state: 'setup', api })
        const { profileComplete } = await api.json<{ profileComplete: boolean }>('GET', '/v1/studios/me/profile')
        setSession({ state: 'signedIn', api, profileComplete })
      } catch (error) {
        signedOut(errorText(error))
      }
    })()
  }, [])
  useEffect(() => {
    document.title = session.state === 'signedIn' && session.profileComplete ? `${viewTitle(view)} · ${t.title}` : t.title
  }, [session, view, t])

  return (
    <>
      <header class="bar">
        <p class="brand">svc-checkout</p>
        {session.state === 'signedIn' && session.profileComplete ? (
          <nav aria-label={t.navigation}>
            <ul>
              {views.map((name) => (
                <li key={name}>
                  <a href={`#${name}`} aria-current={name === view ? 'page' : undefined}>
                    {viewTitle(name)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <LanguageSwitch t={t} onChoose={(language) => void chooseLanguage(language)} />
        {session.state === 'signedIn' || session.state === 'setup' ? (
          <button type="button" class="secondary" onClick={() => signedOut()}>
            {t.signOut}
          </button>
        ) : null}
      </header>
      <main id="main">
        {session.state === 'loading' ? (
          <>
            <h1>{t.title}</h1>
            <p>{t.signingIn}</p>
          </>
        ) : session.state === 'signedOut' ? (
          <>
            <h1>{t.signInHeading}</h1>
            <p>{t.signInIntro}</p>
            <Problem message={session.problem ?? null} />
            <button type="button" disabled={!settings} onClick={() => settings && void startSignIn(settings).catch((error: unknown) => signedOut(errorText(error)))}>
              {t.signIn}
            </button>
          </>
        ) : session.state === 'setup' ? (
          <VaultSetupView api={session.api} t={t} onCreated={() => setSession({ state: 'signedIn', api: session.api, profileComplete: false })} />
        ) : !session.profileComplete ? (
          <ProfileView api={session.api} t={t} onSaved={() => setSession({ ...session, profileComplete: true })} />
        ) : view in settingsViews ? (
          <LazyView load={settingsViews[view as keyof typeof settingsViews]} api={session.api} t={t} />
        ) : view === 'customers' ? (
          <CustomersView api={session.api} t={t} />
        ) : view === 'payments' ? (
          <PaymentsView api={session.api} t={t} />
        ) : view === 'withdrawals' ? (
          <WithdrawalsView api={session.api} t={t} />
        ) : (
          <InvoicesView api={session.api} t={t} />
        )}
      </main>
    </>
  )
}

function Root() {
  return useMemo(() => <Dashboard />, [])
}

const root = document.getElementById('dashboard')!
root.textContent = ''
render(<Root />, root)
