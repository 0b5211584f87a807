/**
 * The look of the authorization server's pages: the dashboard's own (dashboard/dashboard.css), its
 * colours, font, field and button shapes and focus ring, so a merchant who leaves the dashboard or a
 * CLI for consent sees the same product. Inline, since these pages are served whole by the server with
 * no asset of their own; a test holds each colour here to the dashboard's stylesheet.
 */
export const oauthPageStyle = [
  ':root{color:#1f2328;background:#fff;font:16px/1.5 system-ui,sans-serif}',
  'body{margin:0}',
  '.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1rem;border-bottom:1px solid #d0d7de}',
  '.brand{margin:0;font-weight:700}',
  'main{max-width:32rem;margin:0 auto;padding:1rem}',
  'h1{font-size:1.5rem;margin:.5rem 0 1rem}',
  'a{color:#0b57d0}',
  "a[aria-current='true']{font-weight:700}",
  // a name or an address in its own direction inside a right-to-left sentence
  'strong{unicode-bidi:plaintext}',
  // a long address breaks where it must; a scope beside its words stays whole
  'code{direction:ltr;unicode-bidi:isolate;overflow-wrap:anywhere}',
  'label code{white-space:nowrap}',
  'form{display:grid;grid-template-columns:minmax(0,1fr);gap:.25rem}',
  'fieldset{border:1px solid #d0d7de;border-radius:4px;margin:.5rem 0 0;padding:.25rem .75rem .5rem;min-width:0}',
  'legend{font-weight:600;padding:0 .25rem}',
  'label{display:block;font-weight:600;margin-top:.5rem}',
  'fieldset label:has(input[type=checkbox]){display:flex;align-items:flex-start;gap:.5rem;font-weight:400}',
  'input[type=checkbox]{width:1.5rem;height:1.5rem;margin:0;flex:none}',
  'input:not([type=checkbox]),select{width:100%;min-width:0;font:inherit;padding:.5rem;min-height:2.75rem;box-sizing:border-box;border:1px solid #57606a;border-radius:4px}',
  '.hint{color:#57606a;margin:.25rem 0}',
  // the token's symbol after the amount, in the reading direction, as the dashboard's amounts read
  '.amount{display:flex;align-items:center;gap:.5rem}',
  '.amount span{font-weight:600;direction:ltr;unicode-bidi:isolate}',
  'button{font:inherit;min-height:2.75rem;width:100%;margin-top:.75rem;padding:.5rem 1rem;border-radius:4px;border:1px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer}',
  'button.secondary{background:#fff;color:#0b57d0}',
  ':focus-visible{outline:3px solid #1f2328;outline-offset:2px}',
  '[role=alert]{color:#a40e26;border-left:4px solid #a40e26;padding:.25rem .75rem}',
  '[dir=rtl] [role=alert]{border-left:0;border-right:4px solid #a40e26}',
  '.languages{margin-inline-start:auto}',
  '.languages summary{color:#0b57d0;cursor:pointer;padding:.5rem 0}',
  '.languages ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.25rem 0 0;padding:0;list-style:none}',
  '.languages a{display:inline-block;padding:.25rem 0}',
].join('')
