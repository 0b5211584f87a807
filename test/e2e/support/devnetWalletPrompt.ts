import type { Frame, Page } from 'playwright-core'
import { afterPayEn, type AfterPayStrings } from '../../../src/ui/strings.afterPay'

/** The devnet wallet's request as the payer reads it: its intent or warning, then each line as
 * "Label: value" (the ERC-7730 renderer's lines), in order. */
export type ShownRequest = string[]

/** The devnet wallet's own words in the page's language: English's unless told (a catalog's `afterPay`). */
type WalletWords = Pick<AfterPayStrings, 'devnetWalletTitle' | 'devnetWalletApprove' | 'devnetWalletReject'>

/** Waits for the devnet wallet's next request in the page (or frame), as a payer looks at it, and
 * answers it: Approve signs, Reject refuses with EIP-1193 4001, each pressed by the name the page's
 * language gives it. Resolves with what it showed. */
export async function answerDevnetWallet(where: Page | Frame, answer: 'Approve' | 'Reject', words: WalletWords = afterPayEn): Promise<ShownRequest> {
  const prompt = where.getByRole('group', { name: words.devnetWalletTitle })
  await prompt.waitFor({ timeout: 20_000 })
  const said = await prompt.locator(':scope > p:not(:first-of-type)').allTextContents()
  const rows = await prompt.locator('.svc-devnet-request > div').evaluateAll((rows) => rows.map((row) => `${row.querySelector('dt')?.textContent}: ${row.querySelector('dd')?.textContent}`))
  const shown = [...said, ...rows]
  await prompt.getByRole('button', { name: answer === 'Approve' ? words.devnetWalletApprove : words.devnetWalletReject }).click()
  await prompt.waitFor({ state: 'detached' })
  return shown
}

/** Approves every request the devnet wallet makes until `done` settles: for a flow that is not about
 * the wallet's window. */
export async function approveDevnetWalletUntil(where: Page | Frame, done: Promise<unknown>): Promise<ShownRequest[]> {
  const shown: ShownRequest[] = []
  let finished = false
  void done.finally(() => (finished = true))
  while (!finished) {
    const prompt = where.getByRole('group', { name: 'Devnet wallet' })
    const appeared = await prompt.waitFor({ timeout: 500 }).then(
      () => true,
      () => false,
    )
    if (appeared && !finished) shown.push(await answerDevnetWallet(where, 'Approve'))
  }
  return shown
}
