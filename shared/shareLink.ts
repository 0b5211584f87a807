/** The share-link form of SPEC 2.6: the pay page path with the token in the query, never stripped. */
export function shareLinkFor(publicUrl: string, invoiceId: bigint, token: string): string {
  const url = new URL(`/pay/${invoiceId}`, publicUrl)
  url.searchParams.set('token', token)
  return url.toString()
}
