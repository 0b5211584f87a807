import { describe, expect, test } from 'vitest'
import type { Eip1193Provider } from '../../shared/eip1193'
import { paysInOnePrompt, readWalletCapabilities } from './readWalletCapabilities'

const account = '0x5555555555555555555555555555555555555555'
const answering = (answer: unknown): Eip1193Provider & { asked: unknown[] } => {
  const asked: unknown[] = []
  return {
    asked,
    async request({ method, params }) {
      asked.push({ method, params })
      if (answer instanceof Error) throw answer
      return answer
    },
  }
}

describe('readWalletCapabilities', () => {
  test('behavior: asks for the account and the pinned chain, in hex (EIP-5792)', async () => {
    const wallet = answering({ '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } } })
    expect(await readWalletCapabilities(wallet, account, 31337)).toEqual({ atomic: 'supported', paymasterService: true })
    expect(wallet.asked).toEqual([{ method: 'wallet_getCapabilities', params: [account, ['0x7a69']] }])
  })

  test('behavior: 0x0 applies to every chain and the chain\'s own entry overrides it; an upgrading account is ready', async () => {
    const wallet = answering({ '0x0': { paymasterService: { supported: true } }, '0x7a69': { atomic: { status: 'ready' } }, '0x1': { atomic: { status: 'supported' } } })
    const capabilities = await readWalletCapabilities(wallet, account, 31337)
    expect(capabilities).toEqual({ atomic: 'ready', paymasterService: true })
    expect(paysInOnePrompt(capabilities)).toBe(true)
  })

  test('behavior: an unsupported atomic status, no paymaster service, another chain only, or a wallet without the method pays through a vault', async () => {
    for (const answer of [
      { '0x7a69': { atomic: { status: 'unsupported' }, paymasterService: { supported: true } } },
      { '0x7a69': { atomic: { status: 'supported' } } },
      { '0x1': { atomic: { status: 'supported' }, paymasterService: { supported: true } } },
      { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: 'yes' } } },
      Object.assign(new Error('the method wallet_getCapabilities does not exist'), { code: -32601 }),
      null,
    ]) {
      expect(paysInOnePrompt(await readWalletCapabilities(answering(answer), account, 31337))).toBe(false)
    }
  })
})
