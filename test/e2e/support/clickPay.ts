import type { Frame, Page } from 'playwright-core'

/** Pays as a payer does: the Pay button, then, when no verified record names the payee (an invoice
 * issued without metadata), the second confirmation the page asks for before paying an address. */
export async function clickPay(where: Page | Frame): Promise<void> {
  await where.getByRole('button', { name: /^Pay / }).click()
  const confirm = where.getByRole('button', { name: /^Yes, pay / })
  const asked = await where
    .getByRole('alert')
    .filter({ hasText: 'whose owner could not be confirmed' })
    .waitFor({ timeout: 1_500 })
    .then(
      () => true,
      () => false,
    )
  if (asked) await confirm.click()
}
