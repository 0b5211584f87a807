import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, createTestClient, http } from 'viem'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import { startLoopbackChild } from './loopbackChild'

const main = fileURLToPath(new URL('./pimlicoPaymasterMain.mjs', import.meta.url))

/**
 * The mock installs and funds a paymaster for each of EntryPoint v0.6, v0.7 and v0.8 and stops at the
 * first deposit it cannot read. The devnet has only v0.7, the one every payment uses; at the other two
 * addresses v0.7's code stands in, whose deposit functions (balanceOf, depositTo) are theirs too.
 */
async function standInOtherEntryPoints(rpcUrl: string) {
  const code = await createPublicClient({ transport: http(rpcUrl) }).getCode({ address: entryPoint07Address })
  if (!code) throw new Error('the devnet has no EntryPoint v0.7')
  const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
  for (const address of [entryPoint06Address, entryPoint08Address]) await test.setCode({ address, bytecode: code })
}

/**
 * pimlico's mock ERC-7677 paymaster service on 127.0.0.1, a paymaster none of us wrote: it installs
 * pimlico's singleton paymasters on the chain (signer and deposits its own), signs sponsorships for
 * them and forwards what it does not serve to alto. Resolves once it listens, its contracts deployed.
 */
export async function startPimlicoPaymaster({ rpcUrl, altoUrl }: { rpcUrl: string; altoUrl: string }) {
  await standInOtherEntryPoints(rpcUrl)
  const service = await startLoopbackChild({ name: 'the mock paymaster', args: [main, rpcUrl, altoUrl], cwd: dirname(main), timeoutMs: 30_000 })
  return { url: service.url, logs: service.output, stop: service.stop }
}
