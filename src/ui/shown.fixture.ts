import { screen } from '@testing-library/preact'

/** Test-only: the text is on the page and not hidden. The page keeps the other of two notes in place,
 * invisible, and lays out a coming step unseen to claim its room (PaymentStepRoom), so that switching
 * between them moves nothing: being in the DOM is not being seen. */
export function shown(text: string | RegExp, options?: { selector: string }): boolean {
  return screen.queryAllByText(text, options).some((element) => element.closest('[hidden], [aria-hidden="true"]') === null)
}
