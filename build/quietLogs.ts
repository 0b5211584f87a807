import type { Rolldown } from 'vite'

type LogHandler = (level: 'debug' | 'info' | 'warn', log: Rolldown.RolldownLog) => void

/**
 * The bundler's logs, less one that says nothing about the page: ox's Tempo support (reached through
 * the wallet libraries' imports of ox's index) names node:worker_threads, which is left out of a
 * browser build; no built file contains any of it, and the warning would greet every `npm start`.
 */
export function quietLogs(level: 'debug' | 'info' | 'warn', log: Rolldown.RolldownLog, handler: LogHandler) {
  if (log.plugin === 'rolldown:vite-resolve' && log.message.includes('"node:worker_threads"') && log.message.includes('ox/_esm/tempo/')) return
  handler(level, log)
}
