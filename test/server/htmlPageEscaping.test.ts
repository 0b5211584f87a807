import { Window } from 'happy-dom'
import { describe, expect, test } from 'vitest'
import { escapeHtml } from '../../server/http/escapeHtml'
import { renderLoginForm, renderSignInError } from '../../server/identity/interactionForms'
import { oauthRefusalPage, oauthSignInStopPage } from '../../server/merchant/oauth/consentPage'
import { consentCatalogs } from '../../server/merchant/oauth/consentStrings'

/** What a browser builds from a page: a value is text only if it comes back as text and adds no element. */
function parsed(html: string) {
  const { document } = new Window()
  document.write(html)
  return document
}

const markup = `<img src=x onerror="alert('owned')"><script>alert(1)</script> & "quoted" 'too'`

describe("the server's own pages show what a request sent as text", () => {
  test('behavior: a value with markup, escaped, reads back as the same text and adds no element, in a paragraph or in an attribute', () => {
    const document = parsed(`<p id="shown">${escapeHtml(markup)}</p><input id="typed" value="${escapeHtml(markup)}">`)
    expect(document.getElementById('shown')!.textContent).toBe(markup)
    expect((document.getElementById('typed') as unknown as { value: string }).value).toBe(markup)
    expect(document.querySelectorAll('img, script').length).toBe(0)
  })

  test("behavior: the identity provider's and the authorization server's sign-in errors show the provider's words as text, not strip or run them", () => {
    const description = `redirect_uri ${markup} is not registered`
    for (const page of [renderSignInError('invalid_request', description), oauthRefusalPage('Sign-in error', `invalid_request: ${description}`, 'en')]) {
      const document = parsed(page)
      expect(document.querySelector('main p')!.textContent).toBe(`invalid_request: ${description}`)
      expect(document.querySelectorAll('img, main script').length).toBe(0)
      expect(document.title).toBe('Sign-in error')
    }
  })

  test("behavior: the authorization server's refusal in the person's language keeps the provider's words, markup and all, as the text of its technical detail", () => {
    const description = `redirect_uri ${markup} is not registered`
    for (const language of ['en', 'de', 'ar'] as const) {
      const document = parsed(oauthSignInStopPage('refused', language, `invalid_request: ${description}`))
      expect(document.querySelector('main details code')!.textContent).toBe(`invalid_request: ${description}`)
      expect(document.querySelectorAll('img, main script').length).toBe(0)
      expect(document.title).toBe(consentCatalogs[language].signIn.refused.title)
    }
  })

  test('behavior: the sign-in form gives back the email typed, markup and all, as the value of its field', () => {
    const document = parsed(renderLoginForm('uid-1', markup, 'That email and password do not match.'))
    expect((document.getElementById('email') as unknown as { value: string }).value).toBe(markup)
    expect(document.querySelector('[role="alert"]')!.textContent).toBe('That email and password do not match.')
    expect(document.querySelectorAll('img, script').length).toBe(0)
  })
})
