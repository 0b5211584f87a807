import { formatDay, formatDecimal } from './format'

// ICU's locale data and caches are shared by every thread of the page's process: formatting once
// here makes the page's own first formatting, inside hydration, cost what any later one does
onmessage = ({ data: tag }: MessageEvent<string>) => {
  formatDecimal('1234.5', tag)
  formatDay(new Date(0), tag)
  postMessage(null)
}
