import type { Page } from 'playwright-core'

/** Resolves once `done` holds or `withinMs` has passed, looking every 100 ms: the page the last form
 * leads to shows neither form, and waiting out the second for one of them is time no person spends. */
async function holds(done: () => Promise<boolean>, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs
  while (Date.now() < until && !(await done().catch(() => false))) await new Promise((resolve) => setTimeout(resolve, 100))
}

/**
 * The identity provider's own forms (in English: the devnet's provider stands in for the merchant's)
 * and its consent page as the merchant fills them, until `done` holds: whichever of them shows is
 * answered, as a person would, looking again each second while neither shows nor `done` holds. It
 * fails here, naming where the page stopped, when `done` never comes. Usable in a hook as in a test.
 */
export async function throughSignIn(page: Page, login: { email: string; password: string }, done: () => Promise<boolean>) {
  for (let look = 0; look < 60 && !(await done()); look++) {
    // the text box: the consent page's scopes may name email too
    const email = page.getByRole('textbox', { name: 'Email' })
    const allow = page.getByRole('button', { name: 'Allow', exact: true })
    await Promise.race([email.waitFor(), allow.waitFor(), holds(done, 1_000)]).catch(() => {})
    if (await email.isVisible().catch(() => false)) {
      await email.fill(login.email)
      await page.getByLabel('Password').fill(login.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
    } else if (await allow.isVisible().catch(() => false)) {
      await allow.click()
    }
  }
  if (!(await done())) throw new Error(`the sign-in did not come to its end: the page is at ${page.url()}`)
}
