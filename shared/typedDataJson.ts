/** The EIP-712 domain type of every message a payment signs (a token's permit, a vault's payment):
 * eth_signTypedData_v4 wants it spelled out, and DOMAIN_SEPARATOR hashes exactly these fields. */
export const eip712DomainType = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

/** eth_signTypedData_v4's JSON: the domain type spelled out, integers as decimal strings. */
export function typedDataJson(typedData: { domain: object; types: object; primaryType: string; message: object }): string {
  const types = { EIP712Domain: eip712DomainType, ...typedData.types }
  return JSON.stringify({ ...typedData, types }, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))
}
