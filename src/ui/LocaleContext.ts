import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { english, type Locale } from './strings'

export const LocaleContext = createContext<Locale>(english)

export function useLocale(): Locale {
  return useContext(LocaleContext)
}
