import { useState } from 'preact/hooks'
import { errorText } from './Field'

/**
 * What a page does when the merchant presses a button: the buttons wait while it runs, the last
 * problem and notice are cleared, and the outcome is said afterwards (the API's refusal in its own
 * words). `reload` brings the page's list up to date after the work, as what was just done shows
 * there. A question, when given, is asked first and nothing happens unless the merchant agrees.
 */
export function useAction(reload?: () => Promise<unknown>) {
  const [problem, setProblem] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const showProblem = (error: unknown) => setProblem(errorText(error))

  async function run(work: () => Promise<string | null>) {
    setBusy(true)
    setProblem(null)
    setNotice(null)
    try {
      setNotice(await work())
      await reload?.()
    } catch (error) {
      showProblem(error)
    } finally {
      setBusy(false)
    }
  }
  function act(work: () => Promise<string | null>, { confirm: question }: { confirm?: string } = {}) {
    if (question !== undefined && !confirm(question)) return
    void run(work)
  }
  return { problem, notice, busy, setProblem, setNotice, setBusy, showProblem, act }
}
