import { createWalletClient, http, parseEther, parseUnits, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { sendToVault } from '../../src/wallet/sendToVault'
import type { Eip1193Provider } from '../../shared/eip1193'
import { useDevnet } from '../support/devnet'

const devnet = useDevnet()

/** The payer's own wallet on the devnet: it signs and sends its transactions with its key, and asks
 * the node for everything else. */
function walletOf(privateKey: Hex): Eip1193Provider {
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), transport: http(devnet.anvil.rpcUrl) })
  return {
    async request({ method, params = [] }) {
      if (method !== 'eth_sendTransaction') return wallet.request({ method, params } as never)
      const [{ to, data, gas }] = params as [{ to: Hex; data: Hex; gas?: Hex }]
      return wallet.sendTransaction({ chain: null, to, data, ...(gas ? { gas: BigInt(gas) } : {}) })
    },
  }
}

describe('the plain way to fund the vault', () => {
  test('behavior: the wallet sends the missing amount from the account to the vault, paying the network fee, and it is mined', async () => {
    const payer = await devnet.newPayer(parseUnits('47', 6), parseUnits('500', 6))
    await devnet.test.setBalance({ address: payer.owner, value: parseEther('1') })
    const hash = await sendToVault(walletOf(payer.ownerPrivateKey), payer.owner, { token: devnet.deployment.token, vault: payer.vault, amount: parseUnits('201', 6) })
    expect((await devnet.clients.public.getTransactionReceipt({ hash })).status).toBe('success')
    expect(await devnet.balanceOf(payer.vault)).toBe(parseUnits('248', 6))
    expect(await devnet.balanceOf(payer.owner)).toBe(parseUnits('299', 6))
    expect(await devnet.clients.public.getBalance({ address: payer.owner })).toBeLessThan(parseEther('1'))
  })

  test('behavior: a transfer that reverts on-chain is an error, not a funded vault', async () => {
    const payer = await devnet.newPayer(0n, parseUnits('10', 6))
    await devnet.test.setBalance({ address: payer.owner, value: parseEther('1') })
    // a wallet that sends without estimating first, so that the chain itself refuses the transfer
    const wallet = walletOf(payer.ownerPrivateKey)
    const unestimated: Eip1193Provider = {
      request: ({ method, params = [] }) =>
        wallet.request({ method, params: method === 'eth_sendTransaction' ? [{ ...(params[0] as object), gas: '0x30000' }] : params }),
    }
    const sent = sendToVault(unestimated, payer.owner, { token: devnet.deployment.token, vault: payer.vault, amount: parseUnits('11', 6) })
    await expect(sent).rejects.toMatchObject({ code: 'VAULT_TRANSFER_FAILED' })
    expect(await devnet.balanceOf(payer.owner)).toBe(parseUnits('10', 6))
  })

  test('behavior: a transfer the wallet sent but that is never mined stops the wait with an error, it does not hang', async () => {
    const payer = await devnet.newPayer(0n, parseUnits('10', 6))
    await devnet.test.setBalance({ address: payer.owner, value: parseEther('1') })
    await devnet.test.setAutomine(false)
    try {
      let polls = 0
      const sent = sendToVault(walletOf(payer.ownerPrivateKey), payer.owner, { token: devnet.deployment.token, vault: payer.vault, amount: parseUnits('1', 6) }, async () => {
        polls++
      })
      await expect(sent).rejects.toMatchObject({ code: 'VAULT_TRANSFER_FAILED' })
      expect(polls).toBe(120)
    } finally {
      await devnet.test.setAutomine(true)
    }
  })
})
