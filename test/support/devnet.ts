import { createTestClient, encodeFunctionData, http, parseSignature, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll } from 'vitest'
import { invoiceRegistryAbi } from '../../contracts/artifacts/InvoiceRegistry'
import { payerVaultAbi } from '../../contracts/artifacts/PayerVault'
import { stablecoinAbi } from '../../contracts/artifacts/Stablecoin'
import { devnetClients, mined } from '../../server/devnet/deploy'
import { createPayer, issueInvoice, mintTo } from '../../server/devnet/seed'
import { startDevnet, type Devnet } from '../../server/devnet/startDevnet'
import { permitTypedData } from '../../src/shared/permit'
import type { Deployment } from '../../src/shared/deployment'

type DevnetContext = Devnet & { clients: ReturnType<typeof devnetClients>; test: ReturnType<typeof createTestClient> }

/** What tests on a devnet keep doing: read a balance, issue or cancel an invoice, make another payer. */
function devnetActions(context: DevnetContext) {
  return {
    balanceOf: (address: Address) =>
      context.clients.public.readContract({ address: context.deployment.token, abi: stablecoinAbi, functionName: 'balanceOf', args: [address] }),
    /** An Issued invoice from the demo merchant, due in a day. */
    async newInvoice(amount: bigint, metaHash: Hex = `0x${'cd'.repeat(32)}`) {
      const { timestamp } = await context.clients.public.getBlock()
      return issueInvoice(context.anvil.rpcUrl, context.deployment, context.seed.merchant, { amount, dueAt: timestamp + 86_400n, metaHash })
    },
    /** The demo merchant cancels an Issued invoice through its vault, as its dashboard would. */
    async cancelInvoice(id: bigint) {
      const { merchant } = context.seed
      const { public: client, wallet } = devnetClients(context.anvil.rpcUrl, context.deployment.chainId, privateKeyToAccount(merchant.ownerPrivateKey))
      const cancel = encodeFunctionData({ abi: invoiceRegistryAbi, functionName: 'cancel', args: [id] })
      await mined(client, await wallet.writeContract({ address: merchant.vault, abi: payerVaultAbi, functionName: 'execute', args: [context.deployment.registry, 0n, cancel] }))
    },
    /** A payer whose vault holds `funds` and is not deployed yet; its own account holds `accountFunds`
     * of the token and no ETH. */
    async newPayer(funds: bigint, accountFunds = 0n) {
      const payer = await createPayer(context.clients, context.deployment, funds)
      if (accountFunds > 0n) await mintTo(context.clients, context.deployment, payer.owner, accountFunds)
      return payer
    },
  }
}

/** A fresh anvil with everything deployed and seeded, for one test file; stopped after it. */
export function useDevnet() {
  const context = {} as DevnetContext & ReturnType<typeof devnetActions>
  Object.assign(context, devnetActions(context))
  beforeAll(async () => {
    const devnet = await startDevnet()
    Object.assign(context, devnet, {
      clients: devnetClients(devnet.anvil.rpcUrl, devnet.deployment.chainId),
      test: createTestClient({ mode: 'anvil', transport: http(devnet.anvil.rpcUrl) }),
    })
  })
  afterAll(async () => {
    await context.anvil?.stop()
  })
  return context
}

/** What a payer's wallet does for /permit: the owner signs the token's EIP-2612 typed data for its vault. */
export async function signPermit(
  client: ReturnType<typeof devnetClients>['public'],
  deployment: Deployment,
  { ownerPrivateKey, vault, value, deadline, spender = deployment.registry }: {
    ownerPrivateKey: Hex
    vault: Address
    value: bigint
    deadline: bigint
    spender?: Address
  },
) {
  const nonce = await client.readContract({ address: deployment.token, abi: stablecoinAbi, functionName: 'nonces', args: [vault] })
  const typedData = permitTypedData(
    { name: 'USD Coin', version: '2', chainId: deployment.chainId, verifyingContract: deployment.token },
    { owner: vault, spender, value, nonce, deadline },
  )
  const signature = await privateKeyToAccount(ownerPrivateKey).signTypedData(typedData)
  const { r, s, yParity } = parseSignature(signature)
  return { deadline, v: yParity + 27, r, s, signature }
}

/** What a payer's wallet does to pay from its own account: the owner signs a permit letting its vault
 * take `value` from the owner's account. */
export function signFundingPermit(
  client: ReturnType<typeof devnetClients>['public'],
  deployment: Deployment,
  { ownerPrivateKey, owner, vault, value, deadline }: { ownerPrivateKey: Hex; owner: Address; vault: Address; value: bigint; deadline: bigint },
) {
  return signPermit(client, deployment, { ownerPrivateKey, vault: owner, spender: vault, value, deadline })
}
