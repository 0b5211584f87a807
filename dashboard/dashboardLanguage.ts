import { languageCodes, languageOf, negotiateLanguage, textDirection, type Language } from '../src/ui/languages'
import { en, type DashboardCatalog, type DashboardStrings } from './strings'

/**
 * Which of the pay page's 16 languages the dashboard speaks, and its catalog. English is in the
 * dashboard's own script (the fallback and the first paint); every other catalog is a chunk of its
 * own, fetched only by a merchant who reads it, so the first load carries one language, not sixteen.
 */
const catalogs: Record<Exclude<Language, 'en'>, () => Promise<DashboardCatalog>> = {
  es: () => import('./strings.es').then((module) => module.es),
  'pt-BR': () => import('./strings.pt-BR').then((module) => module.ptBR),
  fr: () => import('./strings.fr').then((module) => module.fr),
  de: () => import('./strings.de').then((module) => module.de),
  it: () => import('./strings.it').then((module) => module.it),
  nl: () => import('./strings.nl').then((module) => module.nl),
  pl: () => import('./strings.pl').then((module) => module.pl),
  tr: () => import('./strings.tr').then((module) => module.tr),
  ar: () => import('./strings.ar').then((module) => module.ar),
  hi: () => import('./strings.hi').then((module) => module.hi),
  id: () => import('./strings.id').then((module) => module.id),
  vi: () => import('./strings.vi').then((module) => module.vi),
  ja: () => import('./strings.ja').then((module) => module.ja),
  ko: () => import('./strings.ko').then((module) => module.ko),
  'zh-CN': () => import('./strings.zh-CN').then((module) => module.zhCN),
}

export const dashboardLanguages = languageCodes

// the merchant's own choice outlives the tab: they chose it over what their browser says
const chosenKey = 'svc-dashboard-language'

/** The merchant's chosen language if they chose one, else the first of the browser's languages the
 * dashboard speaks ("de-AT" reads German, "pt-PT" the Brazilian catalog), else English. */
export function preferredLanguage(chosen: string | null, browserLanguages: readonly string[]): Language {
  return (chosen ? languageOf(chosen) : null) ?? negotiateLanguage(browserLanguages).language
}

export function rememberedLanguage(): string | null {
  try {
    return localStorage.getItem(chosenKey)
  } catch {
    // storage refused (a private window's policy): the browser's languages decide
    return null
  }
}

export function rememberLanguage(language: Language) {
  try {
    localStorage.setItem(chosenKey, language)
  } catch {
    // not kept: the switch still applies to this visit
  }
}

/** The language's words; a key still awaiting translation reads in English. */
export async function loadDashboardStrings(language: Language): Promise<DashboardStrings> {
  if (language === 'en') return en
  return { ...en, ...(await catalogs[language]()) }
}

/** The page speaks the language to screen readers and lays out in its direction (Arabic from the right). */
export function applyLanguage(language: Language) {
  document.documentElement.lang = language
  document.documentElement.dir = textDirection(language)
}
