import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { numberToHex, type Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { CodedError } from '../../shared/codedError'
import { createPaymasterService, defaultSponsoredGasCeilings, type SponsoredGasCeilings } from '../../server/payments/paymasterService'

// docs/api.md's refusal table is what a wallet developer codes against: each gas refusal is asked of
// the service itself (its checks on gas come before any chain read) and held to the row that names
// its code. The docs once listed GAS_LIMIT_TOO_HIGH and FEE_TOO_HIGH in one row, both with data.field,
// and the bounds without the tip's own fixed one.

const api = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8')
const refusalRows = api
  .slice(api.indexOf('**Refusals** are JSON-RPC errors'))
  .split('\n\n')[1]!
  .split('\n')
  .filter((line) => line.startsWith('| -'))

/** The one row that documents `code`, and the codes it names. */
function rowOf(code: string) {
  const rows = refusalRows.filter((row) => row.includes(`\`${code}\``))
  expect(rows, code).toHaveLength(1)
  const [, , codes, when] = rows[0]!.split('|').map((cell) => cell.trim())
  return { codes: [...codes!.matchAll(/`(\w+)`/g)].map((match) => match[1]), when: when! }
}

const entryPoint: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
const suggestedTip = 1_000_000_000n
const service = createPaymasterService({
  // the one read the gas checks make: the node's suggested tip
  client: { estimateMaxPriorityFeePerGas: async () => suggestedTip } as never,
  deployment: { chainId: 31337, entryPoint, token: entryPoint, registry: entryPoint, vaultFactory: entryPoint, paymaster: entryPoint },
  signer: privateKeyToAccount(generatePrivateKey()),
  entryPoints: [{ version: '0.7', entryPoint, paymaster: entryPoint }],
  registeredMerchant: async () => true,
  now: () => Date.now(),
})

/** The service's refusal of an operation with these gas fields; calldata it cannot read comes after. */
async function refusal(fields: Partial<Record<keyof SponsoredGasCeilings, bigint>>, method: 'stubData' | 'paymasterData' = 'stubData') {
  const gas = { callGasLimit: 100_000n, verificationGasLimit: 100_000n, preVerificationGas: 50_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: suggestedTip, ...fields }
  const userOp = { sender: entryPoint, nonce: '0x0', callData: '0x', ...Object.fromEntries(Object.entries(gas).map(([name, value]) => [name, numberToHex(value)])) }
  const error = await service[method]({ params: [userOp as never, entryPoint, numberToHex(31337)] }).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(CodedError)
  const { code, details } = error as CodedError
  return { code, data: { ...details } }
}

const gwei = (wei: bigint) => `${(wei / 1_000_000_000n).toLocaleString('en-US')} gwei`

describe('docs/api.md: the paymaster service\'s gas refusals', () => {
  test.each(Object.entries(defaultSponsoredGasCeilings))('behavior: %s above its bound is the refusal the docs name for it, with the data they say', async (field, max) => {
    const { code, data } = await refusal({ [field]: max + 1n })
    expect({ code, data }).toEqual({ code: 'GAS_LIMIT_TOO_HIGH', data: { field, max: max.toString() } })
    const row = rowOf(code)
    expect(row.codes).toEqual([code])
    expect(row.when).toContain(`\`${field}\``)
    expect(row.when).toContain('`data.field`')
    expect(row.when).toContain('`data.max`')
    // and the bound the docs give is the service's (the prose wraps anywhere)
    const bound = field.startsWith('max') ? gwei(max) : max.toLocaleString('en-US')
    expect(api.replace(/\s+/g, ' ')).toContain(`\`${field}\` ≤ ${bound}`)
  })

  test('behavior: a tip within its bound but above twice what the node suggests is FEE_TOO_HIGH, with data.max and no data.field', async () => {
    const { code, data } = await refusal({ maxPriorityFeePerGas: 2n * suggestedTip + 1n })
    expect({ code, data }).toEqual({ code: 'FEE_TOO_HIGH', data: { max: (2n * suggestedTip).toString() } })
    const row = rowOf(code)
    expect(row.codes).toEqual([code])
    expect(row.when).toContain('`maxPriorityFeePerGas`')
    expect(row.when).toContain('twice what the node suggests')
    expect(row.when).toContain('`data.max`')
    expect(row.when).not.toContain('data.field')
  })

  test('behavior: signed data asked without the gas fields is GAS_FIELDS_MISSING, in a row of its own', async () => {
    const { code } = await refusal({ callGasLimit: 0n }, 'paymasterData')
    expect(code).toBe('GAS_FIELDS_MISSING')
    const row = rowOf(code)
    expect(row.codes).toEqual([code])
    expect(row.when).toContain('`pm_getPaymasterData`')
  })
})
