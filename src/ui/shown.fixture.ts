import { screen } from '@testing-library/preact'

/** Test-only: the text is on the page and not hidden. The page keeps the other of two notes in place,
 * invisible, so that switching between them moves nothing: being in the DOM is not being seen. */
export function shown(text: string | RegExp, options?: { selector: string }): boolean {
  const element = screen.queryByText(text, options)
  return element !== null && element.closest('[hidden]') === null
}
