import { useEffect, useState } from 'preact/hooks'

/** The clock, re-read every second while `active`: countdowns tick without the flow changing state. */
export function useNow(active = true): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return now
}
